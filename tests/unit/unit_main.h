/* unit_main.h - included first (-include) in every tests/unit/test_*.c of
 * the unit-test program (mk/unit.mk), whose main is renamed
 * -Dmain=kw_unit_main_<test>: this prototype, renamed with it, is the one
 * -Wmissing-prototypes asks for.  tests/unit/unit_main.c calls the test's
 * main by the name the program was started as. */
#ifndef KW_UNIT_MAIN_H
#define KW_UNIT_MAIN_H

int main(void);

#endif
