/* arch.c - ISA table and capability tables (rendering.md §2). */
#include "kwgen/arch.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const kw_isa_info isas[] = {
	/* name     isa          family          wave w32 w64 maxv agpr mcpu */
	{ "gfx908",  { 9, 0, 8 },  KW_FAM_GFX9,    64, 0, 1, 256, 1, "gfx908" },
	{ "gfx90a",  { 9, 0, 10 }, KW_FAM_GFX90A,  64, 0, 1, 256, 1, "gfx90a" },
	{ "gfx940",  { 9, 4, 0 },  KW_FAM_GFX90A,  64, 0, 1, 256, 1, "gfx942" },
	{ "gfx941",  { 9, 4, 1 },  KW_FAM_GFX90A,  64, 0, 1, 256, 1, "gfx942" },
	{ "gfx942",  { 9, 4, 2 },  KW_FAM_GFX90A,  64, 0, 1, 256, 1, "gfx942" },
	{ "gfx950",  { 9, 5, 0 },  KW_FAM_GFX90A,  64, 0, 1, 256, 1, "gfx950" },
	{ "gfx1100", { 11, 0, 0 }, KW_FAM_GFX11,   32, 1, 1, 256, 0, "gfx1100" },
	{ "gfx1101", { 11, 0, 1 }, KW_FAM_GFX11,   32, 1, 1, 256, 0, "gfx1101" },
	{ "gfx1102", { 11, 0, 2 }, KW_FAM_GFX11,   32, 1, 1, 256, 0, "gfx1102" },
	{ "gfx1200", { 12, 0, 0 }, KW_FAM_GFX12,   32, 1, 1, 256, 0, "gfx1200" },
	{ "gfx1201", { 12, 0, 1 }, KW_FAM_GFX12,   32, 1, 1, 256, 0, "gfx1201" },
	{ "gfx1250", { 12, 5, 0 }, KW_FAM_GFX1250, 32, 1, 0, 1024, 0, "gfx1250" },
};

#define NISAS ((int)(sizeof(isas) / sizeof(isas[0])))

int kw_isa_count(void)
{
	return NISAS;
}

const kw_isa_info *kw_isa_at(int i)
{
	return i >= 0 && i < NISAS ? &isas[i] : NULL;
}

const kw_isa_info *kw_isa_find(kw_isa isa)
{
	for (int i = 0; i < NISAS; i++)
		if (isas[i].isa.major == isa.major && isas[i].isa.minor == isa.minor &&
		    isas[i].isa.step == isa.step)
			return &isas[i];
	return NULL;
}

static int unknown_isa(kw_error *err, const char *what)
{
	char list[256] = "";
	size_t n = 0;

	for (int i = 0; i < NISAS; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", isas[i].name);
	return kw_error_set(err, KW_EINVAL, "isa", "unknown ISA %s; supported: %s (as a name or a [major, minor, step] triple)",
			    what, list);
}

int kw_isa_parse(const kw_isa_info **out, const json_t *v, kw_error *err)
{
	kw_isa t;
	char what[64];

	if (!v)
		return kw_error_set(err, KW_EINVAL, "isa", "missing required key isa: give \"gfx942\" or [9, 4, 2]");
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = strlen(s);

		if (n > 3 && strncasecmp(s, "gfx", 3) == 0)
			s += 3, n -= 3;
		snprintf(what, sizeof(what), "\"%.40s\"", json_string_value(v));
		if (n < 3 || n > 4)
			return unknown_isa(err, what);
		for (size_t i = 0; i < n; i++)
			if (!isxdigit((unsigned char)s[i]) || (i < n - 1 && !isdigit((unsigned char)s[i])))
				return unknown_isa(err, what);
		t.step = isdigit((unsigned char)s[n - 1]) ? s[n - 1] - '0' : tolower((unsigned char)s[n - 1]) - 'a' + 10;
		t.minor = s[n - 2] - '0';
		t.major = (n == 4) ? (s[0] - '0') * 10 + (s[1] - '0') : s[0] - '0';
	} else if (json_is_array(v)) {
		json_int_t a[3];

		if (json_array_size(v) != 3)
			return kw_error_set(err, KW_EINVAL, "isa", "isa as an array must have exactly 3 integers [major, minor, step]");
		for (size_t i = 0; i < 3; i++) {
			json_t *e = json_array_get(v, i);
			if (!json_is_integer(e))
				return kw_error_set(err, KW_EINVAL, "isa", "isa as an array must have exactly 3 integers [major, minor, step]");
			a[i] = json_integer_value(e);
			if (a[i] < 0 || a[i] > 99)
				return kw_error_set(err, KW_EINVAL, "isa", "isa component %lld is out of range 0..99", (long long)a[i]);
		}
		t.major = (int)a[0], t.minor = (int)a[1], t.step = (int)a[2];
		snprintf(what, sizeof(what), "[%d, %d, %d]", t.major, t.minor, t.step);
	} else {
		return kw_error_set(err, KW_EINVAL, "isa", "isa must be a string like \"gfx942\" or an array like [9, 4, 2]");
	}
	*out = kw_isa_find(t);
	if (!*out)
		return unknown_isa(err, what);
	return 0;
}

static const char *const asmcap_names[] = {
#define N(n) #n,
	KW_ASMCAPS(N)
#undef N
};
static const char *const archcap_names[] = {
#define N(n) #n,
	KW_ARCHCAPS(N)
#undef N
};

int kw_asmcap_index(const char *name)
{
	for (int i = 0; i < KW_ASMCAP_COUNT; i++)
		if (!strcmp(asmcap_names[i], name))
			return i;
	return -1;
}

int kw_archcap_index(const char *name)
{
	for (int i = 0; i < KW_ARCHCAP_COUNT; i++)
		if (!strcmp(archcap_names[i], name))
			return i;
	return -1;
}

const char *kw_asmcap_name(int i)
{
	return i >= 0 && i < KW_ASMCAP_COUNT ? asmcap_names[i] : NULL;
}

const char *kw_archcap_name(int i)
{
	return i >= 0 && i < KW_ARCHCAP_COUNT ? archcap_names[i] : NULL;
}

static int is_one_of(kw_isa t, const char *const *names)
{
	for (; *names; names++) {
		const kw_isa_info *i = NULL;
		for (int k = 0; k < NISAS; k++)
			if (!strcmp(isas[k].name, *names))
				i = &isas[k];
		if (i && i->isa.major == t.major && i->isa.minor == t.minor && i->isa.step == t.step)
			return 1;
	}
	return 0;
}

/* gfx940 and gfx941 are the gfx942 instruction set (LLVM folded them into
 * gfx942); gfx1101/gfx1102 probe exactly like gfx1100. */
static void caps_compute(kw_caps *c, const kw_isa_info *info)
{
	kw_isa t = info->isa;
	int major = t.major, minor = t.minor;
	static const char *const ecc[] = { "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1250", NULL };
	static const char *const wc0[] = { "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", NULL };
	static const char *const sched[] = { "gfx1200", "gfx1201", "gfx1250", NULL };
	static const char *const acccd[] = { "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", NULL };
	static const char *const xlane[] = { "gfx940", "gfx941", "gfx942", "gfx950", NULL };
	static const char *const trans[] = { "gfx940", "gfx941", "gfx942", "gfx950", "gfx1250", NULL };
	static const char *const x950[] = { "gfx950", "gfx1250", NULL };
	static const char *const x1250[] = { "gfx1250", NULL };
	static const char *const movb64[] = { "gfx940", "gfx941", "gfx942", "gfx950", "gfx1250", NULL };

	memset(c, 0, sizeof(*c));
	/* asmCaps (LLVM 22 probe results, rendering.md §2.1) */
	c->asm_[KW_ASM_SupportedISA] = 1;
	c->asm_[KW_ASM_SupportedSource] = 1;
	c->asm_[KW_ASM_HasExplicitCO] = 1;
	c->asm_[KW_ASM_ShortBranchMaxLength] = 16384;
	c->asm_[KW_ASM_v_mov_b64] = is_one_of(t, movb64);
	switch (info->family) {
	case KW_FAM_GFX9:
	case KW_FAM_GFX90A:
		c->asm_[KW_ASM_MaxVmcnt] = 63;
		c->asm_[KW_ASM_MaxLgkmcnt] = 15;
		break;
	case KW_FAM_GFX11:
		c->asm_[KW_ASM_HasExplicitNC] = 1;
		c->asm_[KW_ASM_s_delay_alu] = 1;
		c->asm_[KW_ASM_SeparateVscnt] = 1;
		c->asm_[KW_ASM_MaxVmcnt] = 63;
		c->asm_[KW_ASM_MaxVscnt] = 63;
		c->asm_[KW_ASM_MaxLgkmcnt] = 63;
		break;
	case KW_FAM_GFX12:
	case KW_FAM_GFX1250:
		c->asm_[KW_ASM_HasExplicitNC] = 1;
		c->asm_[KW_ASM_s_delay_alu] = 1;
		c->asm_[KW_ASM_HasNewBarrier] = 1;
		c->asm_[KW_ASM_SeparateLGKMcnt] = 1;
		c->asm_[KW_ASM_SeparateVMcnt] = 1;
		c->asm_[KW_ASM_MaxLoadcnt] = 63;
		c->asm_[KW_ASM_MaxStorecnt] = 63;
		c->asm_[KW_ASM_MaxDscnt] = 63;
		c->asm_[KW_ASM_MaxKmcnt] = 31;
		if (info->family == KW_FAM_GFX1250) {
			c->asm_[KW_ASM_HasTDM] = 1;
			c->asm_[KW_ASM_HasVgprMSB] = 1;
			c->asm_[KW_ASM_HasVgprMSB16] = 1;
			c->asm_[KW_ASM_ShortBranchMaxLength] = 8192;
		}
		break;
	}
	/* archCaps (fixed tables, rendering.md §2.2) */
	c->arch[KW_ARCH_HasEccHalf] = is_one_of(t, ecc);
	c->arch[KW_ARCH_Waitcnt0Disabled] = is_one_of(t, wc0);
	c->arch[KW_ARCH_DeviceLDS] = !strcmp(info->name, "gfx950") ? 163840 :
				     !strcmp(info->name, "gfx1250") ? 327680 : 65536;
	c->arch[KW_ARCH_CMPXWritesSGPR] = !(major == 10 || major == 11 || major == 12);
	c->arch[KW_ARCH_HasWave32] = (major == 10 || major == 11 || major == 12);
	c->arch[KW_ARCH_HasSchedMode] = is_one_of(t, sched);
	c->arch[KW_ARCH_HasAccCD] = is_one_of(t, acccd);
	c->arch[KW_ARCH_ArchAccUnifiedRegs] = is_one_of(t, acccd);
	c->arch[KW_ARCH_CrosslaneWait] = is_one_of(t, xlane);
	c->arch[KW_ARCH_TransOpWait] = is_one_of(t, trans);
	c->arch[KW_ARCH_SDWAWait] = is_one_of(t, trans);
	c->arch[KW_ARCH_VgprBank] = (major == 10 || major == 11 || major == 12);
	c->arch[KW_ARCH_DSLow16NotPreserve] = major == 12;
	c->arch[KW_ARCH_WorkGroupIdFromTTM] = major == 12;
	c->arch[KW_ARCH_NoSDWA] = (major == 11 || major == 12);
	c->arch[KW_ARCH_VOP3ByteSel] = major == 12;
	c->arch[KW_ARCH_HasFP8_OCP] = major == 12;
	c->arch[KW_ARCH_HasWmmaArbStallBit] = (major == 12 && minor == 5);
	c->arch[KW_ARCH_HasF32XEmulation] = is_one_of(t, x950);
	c->arch[KW_ARCH_HasMXScaleSwizzle] = is_one_of(t, x950);
	c->arch[KW_ARCH_HasInvWbDevFences] = is_one_of(t, x1250);
	c->arch[KW_ARCH_RequiresXCntForVolatileVMEM] = is_one_of(t, x1250);
	c->arch[KW_ARCH_LDSBankCount] = 64;
	c->arch[KW_ARCH_LDSBankWidth] = 4;
}

static kw_caps caps_table[NISAS];
static pthread_once_t caps_once = PTHREAD_ONCE_INIT;

static void caps_init(void)
{
	for (int i = 0; i < NISAS; i++)
		caps_compute(&caps_table[i], &isas[i]);
}

void kw_caps_for(kw_caps *out, const kw_isa_info *info)
{
	pthread_once(&caps_once, caps_init);
	*out = caps_table[info - isas];
}

int kw_caps_override(kw_caps *caps, int which, const json_t *obj, const char *field, kw_error *err)
{
	const char *k;
	json_t *v;

	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return kw_error_set(err, KW_EINVAL, field, "%s must be an object of capability name -> integer or boolean", field);
	json_object_foreach((json_t *)obj, k, v) {
		int64_t val;
		int idx;

		if (json_is_boolean(v))
			val = json_is_true(v);
		else if (json_is_integer(v))
			val = json_integer_value(v);
		else {
			char f[KW_ERROR_FIELD_MAX];
			snprintf(f, sizeof(f), "%s.%.80s", field, k);
			return kw_error_set(err, KW_EINVAL, f, "%s must be an integer or a boolean", f);
		}
		idx = which ? kw_archcap_index(k) : kw_asmcap_index(k);
		if (idx < 0)
			continue;
		if (which)
			caps->arch[idx] = val;
		else
			caps->asm_[idx] = val;
	}
	return 0;
}

json_t *kw_isas_json(void)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < NISAS; i++) {
		kw_caps c;
		json_t *o = json_object(), *ac = json_object(), *rc = json_object(), *w = json_array();

		kw_caps_for(&c, &isas[i]);
		for (int k = 0; k < KW_ASMCAP_COUNT; k++)
			json_object_set_new(ac, asmcap_names[k], json_integer(c.asm_[k]));
		for (int k = 0; k < KW_ARCHCAP_COUNT; k++)
			json_object_set_new(rc, archcap_names[k], json_integer(c.arch[k]));
		if (isas[i].wave32)
			json_array_append_new(w, json_integer(32));
		if (isas[i].wave64)
			json_array_append_new(w, json_integer(64));
		json_object_set_new(o, "name", json_string(isas[i].name));
		json_object_set_new(o, "isa", json_pack("[iii]", isas[i].isa.major, isas[i].isa.minor, isas[i].isa.step));
		json_object_set_new(o, "wavefront", w);
		json_object_set_new(o, "defaultWavefront", json_integer(isas[i].default_wavefront));
		json_object_set_new(o, "maxVgpr", json_integer(isas[i].max_vgpr));
		json_object_set_new(o, "hasAgpr", json_boolean(isas[i].has_agpr));
		json_object_set_new(o, "asmCaps", ac);
		json_object_set_new(o, "archCaps", rc);
		json_array_append_new(arr, o);
	}
	return arr;
}
