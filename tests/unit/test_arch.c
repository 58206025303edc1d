/*
 * test_arch.c - ISA names/triples, capability tables per ISA and overrides
 * (kwgen/arch.h, rendering.md §2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <string.h>

#include "kwgen/arch.h"

static const kw_isa_info *parse_ok(json_t *v)
{
	const kw_isa_info *info = NULL;
	kw_error err = KW_ERROR_INIT;
	int rc = kw_isa_parse(&info, v, &err);

	json_decref(v);
	if (rc)
		fail_msg("kw_isa_parse: %s", err.message);
	assert_non_null(info);
	return info;
}

static void parse_bad(json_t *v, const char *msg_part)
{
	const kw_isa_info *info = NULL;
	kw_error err = KW_ERROR_INIT;
	int rc = kw_isa_parse(&info, v, &err);

	json_decref(v);
	assert_int_equal(rc, KW_EINVAL);
	assert_int_equal(err.code, KW_EINVAL);
	assert_string_equal(err.field, "isa");
	if (msg_part && !strstr(err.message, msg_part))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, msg_part);
}

static const kw_isa_info *by_name(const char *name)
{
	return parse_ok(json_string(name));
}

static void caps_of(kw_caps *c, const char *name)
{
	kw_caps_for(c, by_name(name));
}

static void test_isa_table(void **state)
{
	static const struct {
		const char *name;
		int M, m, s;
	} want[] = {
		{ "gfx908", 9, 0, 8 }, { "gfx90a", 9, 0, 10 }, { "gfx940", 9, 4, 0 }, { "gfx941", 9, 4, 1 },
		{ "gfx942", 9, 4, 2 }, { "gfx950", 9, 5, 0 }, { "gfx1100", 11, 0, 0 }, { "gfx1101", 11, 0, 1 },
		{ "gfx1102", 11, 0, 2 }, { "gfx1200", 12, 0, 0 }, { "gfx1201", 12, 0, 1 }, { "gfx1250", 12, 5, 0 },
	};
	(void)state;
	assert_int_equal(kw_isa_count(), (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < kw_isa_count(); i++) {
		const kw_isa_info *a = kw_isa_at(i);
		kw_isa t = { want[i].M, want[i].m, want[i].s };

		assert_string_equal(a->name, want[i].name);
		assert_int_equal(a->isa.major, want[i].M);
		assert_int_equal(a->isa.minor, want[i].m);
		assert_int_equal(a->isa.step, want[i].s);
		assert_ptr_equal(kw_isa_find(t), a);
		assert_ptr_equal(by_name(want[i].name), a);
		assert_ptr_equal(parse_ok(json_pack("[iii]", want[i].M, want[i].m, want[i].s)), a);
	}
	assert_null(kw_isa_at(-1));
	assert_null(kw_isa_at(kw_isa_count()));
	{
		kw_isa t = { 10, 3, 0 };
		assert_null(kw_isa_find(t));
	}
}

static void test_isa_case(void **state)
{
	(void)state;
	assert_string_equal(by_name("GFX90A")->name, "gfx90a");
	assert_string_equal(by_name("gfx90A")->name, "gfx90a");
	assert_string_equal(by_name("Gfx942")->name, "gfx942");
	assert_string_equal(by_name("GFX1250")->name, "gfx1250");
	/* the oracle also takes the digits without the prefix */
	assert_string_equal(by_name("942")->name, "gfx942");
}

static void test_isa_info_fields(void **state)
{
	const kw_isa_info *a;

	(void)state;
	a = by_name("gfx908");
	assert_int_equal(a->family, KW_FAM_GFX9);
	assert_int_equal(a->default_wavefront, 64);
	assert_int_equal(a->has_agpr, 1);
	assert_int_equal(a->max_vgpr, 256);
	a = by_name("gfx90a");
	assert_int_equal(a->family, KW_FAM_GFX90A);
	a = by_name("gfx940");
	assert_string_equal(a->llvm_mcpu, "gfx942");
	a = by_name("gfx941");
	assert_string_equal(a->llvm_mcpu, "gfx942");
	a = by_name("gfx1100");
	assert_int_equal(a->family, KW_FAM_GFX11);
	assert_int_equal(a->default_wavefront, 32);
	assert_int_equal(a->has_agpr, 0);
	assert_true(a->wave32 && a->wave64);
	a = by_name("gfx1201");
	assert_int_equal(a->family, KW_FAM_GFX12);
	a = by_name("gfx1250");
	assert_int_equal(a->family, KW_FAM_GFX1250);
	assert_int_equal(a->max_vgpr, 1024);
	assert_int_equal(a->wave32, 1);
	assert_int_equal(a->wave64, 0);
}

static void test_isa_unknown(void **state)
{
	const kw_isa_info *info = NULL;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	parse_bad(json_string("gfx1030"), "supported: gfx908");
	parse_bad(json_string("gfx1030"), "gfx1030");
	parse_bad(json_string("gfx"), NULL);
	parse_bad(json_string("gfx9"), NULL);
	parse_bad(json_string("gfx94z"), NULL);
	parse_bad(json_string("gfx12345"), NULL);
	parse_bad(json_string(""), NULL);
	parse_bad(json_string("sm_90"), NULL);
	parse_bad(json_pack("[iii]", 10, 3, 0), "[10, 3, 0]");
	parse_bad(json_pack("[ii]", 9, 4), "3 integers");
	parse_bad(json_pack("[iiii]", 9, 4, 2, 0), "3 integers");
	parse_bad(json_pack("[iis]", 9, 4, "2"), "3 integers");
	parse_bad(json_pack("[iii]", 9, 4, 100), "out of range");
	parse_bad(json_pack("[iii]", -9, 4, 2), "out of range");
	parse_bad(json_integer(942), NULL);
	parse_bad(json_real(9.42), NULL);
	parse_bad(json_object(), NULL);
	assert_int_equal(kw_isa_parse(&info, NULL, &err), KW_EINVAL);
	assert_string_equal(err.field, "isa");
	assert_non_null(strstr(err.message, "missing"));
}

#define A(n) KW_ASM_##n
#define R(n) KW_ARCH_##n

/* rendering.md §2.1: gfx908 gfx90a gfx942 gfx950 gfx1100 gfx1200 gfx1201 gfx1250 */
static const char *const names8[8] = { "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200", "gfx1201", "gfx1250" };
static const struct {
	int cap;
	int64_t v[8];
} asm_rows[] = {
	{ A(SeparateVscnt), { 0, 0, 0, 0, 1, 0, 0, 0 } },
	{ A(SeparateVMcnt), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ A(SeparateLGKMcnt), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ A(MaxVmcnt), { 63, 63, 63, 63, 63, 0, 0, 0 } },
	{ A(MaxLgkmcnt), { 15, 15, 15, 15, 63, 0, 0, 0 } },
	{ A(MaxVscnt), { 0, 0, 0, 0, 63, 0, 0, 0 } },
	{ A(MaxDscnt), { 0, 0, 0, 0, 0, 63, 63, 63 } },
	{ A(MaxKmcnt), { 0, 0, 0, 0, 0, 31, 31, 31 } },
	{ A(MaxLoadcnt), { 0, 0, 0, 0, 0, 63, 63, 63 } },
	{ A(MaxStorecnt), { 0, 0, 0, 0, 0, 63, 63, 63 } },
	{ A(HasNewBarrier), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ A(HasVgprMSB), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ A(HasTDM), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	/* "other asmCaps the oracle also carries" */
	{ A(HasExplicitCO), { 1, 1, 1, 1, 1, 1, 1, 1 } },
	{ A(HasExplicitNC), { 0, 0, 0, 0, 1, 1, 1, 1 } },
	{ A(v_mov_b64), { 0, 0, 1, 1, 0, 0, 0, 1 } },
	{ A(s_delay_alu), { 0, 0, 0, 0, 1, 1, 1, 1 } },
	{ A(HasVgprMSB16), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ A(ShortBranchMaxLength), { 16384, 16384, 16384, 16384, 16384, 16384, 16384, 8192 } },
	{ A(SupportedISA), { 1, 1, 1, 1, 1, 1, 1, 1 } },
};

static const struct {
	int cap;
	int64_t v[8];
} arch_rows[] = {
	{ R(Waitcnt0Disabled), { 1, 1, 1, 1, 0, 0, 0, 0 } },
	{ R(HasEccHalf), { 1, 1, 1, 1, 0, 0, 0, 1 } },
	{ R(DeviceLDS), { 65536, 65536, 65536, 163840, 65536, 65536, 65536, 327680 } },
	{ R(CMPXWritesSGPR), { 1, 1, 1, 1, 0, 0, 0, 0 } },
	{ R(HasWave32), { 0, 0, 0, 0, 1, 1, 1, 1 } },
	{ R(VgprBank), { 0, 0, 0, 0, 1, 1, 1, 1 } },
	{ R(HasSchedMode), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ R(HasAccCD), { 0, 1, 1, 1, 0, 0, 0, 0 } },
	{ R(ArchAccUnifiedRegs), { 0, 1, 1, 1, 0, 0, 0, 0 } },
	{ R(CrosslaneWait), { 0, 0, 1, 1, 0, 0, 0, 0 } },
	{ R(TransOpWait), { 0, 0, 1, 1, 0, 0, 0, 1 } },
	{ R(SDWAWait), { 0, 0, 1, 1, 0, 0, 0, 1 } },
	{ R(DSLow16NotPreserve), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ R(WorkGroupIdFromTTM), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ R(VOP3ByteSel), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ R(HasFP8_OCP), { 0, 0, 0, 0, 0, 1, 1, 1 } },
	{ R(NoSDWA), { 0, 0, 0, 0, 1, 1, 1, 1 } },
	{ R(HasWmmaArbStallBit), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ R(HasF32XEmulation), { 0, 0, 0, 1, 0, 0, 0, 1 } },
	{ R(HasMXScaleSwizzle), { 0, 0, 0, 1, 0, 0, 0, 1 } },
	{ R(HasInvWbDevFences), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ R(RequiresXCntForVolatileVMEM), { 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ R(LDSBankCount), { 64, 64, 64, 64, 64, 64, 64, 64 } },
	{ R(LDSBankWidth), { 4, 4, 4, 4, 4, 4, 4, 4 } },
};

static void test_asmcaps_per_isa(void **state)
{
	(void)state;
	for (int i = 0; i < 8; i++) {
		kw_caps c;
		caps_of(&c, names8[i]);
		for (size_t r = 0; r < sizeof(asm_rows) / sizeof(asm_rows[0]); r++)
			if (c.asm_[asm_rows[r].cap] != asm_rows[r].v[i])
				fail_msg("%s asmCaps %s = %lld, want %lld", names8[i], kw_asmcap_name(asm_rows[r].cap),
					 (long long)c.asm_[asm_rows[r].cap], (long long)asm_rows[r].v[i]);
	}
}

static void test_archcaps_per_isa(void **state)
{
	(void)state;
	for (int i = 0; i < 8; i++) {
		kw_caps c;
		caps_of(&c, names8[i]);
		for (size_t r = 0; r < sizeof(arch_rows) / sizeof(arch_rows[0]); r++)
			if (c.arch[arch_rows[r].cap] != arch_rows[r].v[i])
				fail_msg("%s archCaps %s = %lld, want %lld", names8[i], kw_archcap_name(arch_rows[r].cap),
					 (long long)c.arch[arch_rows[r].cap], (long long)arch_rows[r].v[i]);
	}
}

static void assert_same_caps(const char *a, const char *b)
{
	kw_caps ca, cb;

	caps_of(&ca, a);
	caps_of(&cb, b);
	for (int i = 0; i < KW_ASMCAP_COUNT; i++)
		if (ca.asm_[i] != cb.asm_[i])
			fail_msg("%s vs %s: asmCaps %s %lld != %lld", a, b, kw_asmcap_name(i), (long long)ca.asm_[i], (long long)cb.asm_[i]);
	for (int i = 0; i < KW_ARCHCAP_COUNT; i++)
		if (ca.arch[i] != cb.arch[i])
			fail_msg("%s vs %s: archCaps %s %lld != %lld", a, b, kw_archcap_name(i), (long long)ca.arch[i], (long long)cb.arch[i]);
}

static void test_aliases_share_tables(void **state)
{
	(void)state;
	assert_same_caps("gfx940", "gfx942");
	assert_same_caps("gfx941", "gfx942");
	assert_same_caps("gfx1101", "gfx1100");
	assert_same_caps("gfx1102", "gfx1100");
	assert_int_equal(by_name("gfx1101")->family, KW_FAM_GFX11);
	assert_int_equal(by_name("gfx940")->family, KW_FAM_GFX90A);
}

static void test_cap_names(void **state)
{
	(void)state;
	for (int i = 0; i < KW_ASMCAP_COUNT; i++)
		assert_int_equal(kw_asmcap_index(kw_asmcap_name(i)), i);
	for (int i = 0; i < KW_ARCHCAP_COUNT; i++)
		assert_int_equal(kw_archcap_index(kw_archcap_name(i)), i);
	assert_int_equal(kw_asmcap_index("MaxLgkmcnt"), KW_ASM_MaxLgkmcnt);
	assert_int_equal(kw_archcap_index("Waitcnt0Disabled"), KW_ARCH_Waitcnt0Disabled);
	assert_int_equal(kw_asmcap_index("maxlgkmcnt"), -1); /* names are case-sensitive */
	assert_int_equal(kw_asmcap_index("NoSuchCap"), -1);
	assert_int_equal(kw_archcap_index("MaxLgkmcnt"), -1);
	assert_null(kw_asmcap_name(-1));
	assert_null(kw_asmcap_name(KW_ASMCAP_COUNT));
	assert_null(kw_archcap_name(KW_ARCHCAP_COUNT));
}

static void test_overrides(void **state)
{
	kw_caps c, orig;
	kw_error err = KW_ERROR_INIT;
	json_t *o;

	(void)state;
	caps_of(&c, "gfx942");
	orig = c;
	o = json_pack("{s:i,s:b,s:i,s:i}", "MaxLgkmcnt", 3, "HasNewBarrier", 1, "NotModelled", 7, "MaxVmcnt", -5);
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	assert_int_equal(c.asm_[A(MaxLgkmcnt)], 3);
	assert_int_equal(c.asm_[A(HasNewBarrier)], 1);
	assert_int_equal(c.asm_[A(MaxVmcnt)], -5);
	assert_int_equal(c.asm_[A(SeparateVscnt)], orig.asm_[A(SeparateVscnt)]);
	assert_memory_equal(c.arch, orig.arch, sizeof(c.arch));

	o = json_pack("{s:b,s:i}", "Waitcnt0Disabled", 0, "DeviceLDS", 1);
	assert_int_equal(kw_caps_override(&c, 1, o, "archCaps", &err), 0);
	json_decref(o);
	assert_int_equal(c.arch[R(Waitcnt0Disabled)], 0);
	assert_int_equal(c.arch[R(DeviceLDS)], 1);
	assert_int_equal(c.asm_[A(MaxLgkmcnt)], 3);

	/* an archCap name in asmCaps is not modelled there: ignored */
	orig = c;
	o = json_pack("{s:i}", "Waitcnt0Disabled", 1);
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	assert_memory_equal(&c, &orig, sizeof(c));

	/* NULL and null are no-ops */
	assert_int_equal(kw_caps_override(&c, 0, NULL, "asmCaps", &err), 0);
	o = json_null();
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	assert_memory_equal(&c, &orig, sizeof(c));
}

static void test_override_errors(void **state)
{
	kw_caps c;
	kw_error err = KW_ERROR_INIT;
	json_t *o;

	(void)state;
	caps_of(&c, "gfx1100");
	o = json_pack("{s:f}", "MaxLgkmcnt", 1.5);
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), KW_EINVAL);
	assert_string_equal(err.field, "asmCaps.MaxLgkmcnt");
	json_decref(o);

	kw_error_clear(&err);
	o = json_pack("{s:s}", "HasAccCD", "yes");
	assert_int_equal(kw_caps_override(&c, 1, o, "archCaps", &err), KW_EINVAL);
	assert_string_equal(err.field, "archCaps.HasAccCD");
	json_decref(o);

	kw_error_clear(&err);
	o = json_pack("{s:n}", "MaxVscnt");
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), KW_EINVAL);
	assert_string_equal(err.field, "asmCaps.MaxVscnt");
	json_decref(o);

	kw_error_clear(&err);
	o = json_pack("[i]", 1);
	assert_int_equal(kw_caps_override(&c, 0, o, "asmCaps", &err), KW_EINVAL);
	assert_string_equal(err.field, "asmCaps");
	json_decref(o);
}

static void test_isas_json(void **state)
{
	json_t *a = kw_isas_json(), *e;

	(void)state;
	assert_non_null(a);
	assert_int_equal(json_array_size(a), (size_t)kw_isa_count());
	e = json_array_get(a, 4);
	assert_string_equal(json_string_value(json_object_get(e, "name")), "gfx942");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(e, "asmCaps"), "MaxLgkmcnt")), 15);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(e, "archCaps"), "Waitcnt0Disabled")), 1);
	e = json_array_get(a, kw_isa_count() - 1);
	assert_string_equal(json_string_value(json_object_get(e, "name")), "gfx1250");
	assert_int_equal(json_array_size(json_object_get(e, "wavefront")), 1);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(e, "wavefront"), 0)), 32);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_table),
		cmocka_unit_test(test_isa_case),
		cmocka_unit_test(test_isa_info_fields),
		cmocka_unit_test(test_isa_unknown),
		cmocka_unit_test(test_asmcaps_per_isa),
		cmocka_unit_test(test_archcaps_per_isa),
		cmocka_unit_test(test_aliases_share_tables),
		cmocka_unit_test(test_cap_names),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_override_errors),
		cmocka_unit_test(test_isas_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
