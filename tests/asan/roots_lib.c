/* tests/asan/roots_lib.c - the module tests/asan/roots_check.c dlopens: a
 * heap block whose only pointer is in a module loaded after start. */
void *kw_roots_lib_slot;
