/* sfacts_int.h - what the files of the SGPR fact domain share (sfacts.c,
 * sfacts_step.c, sfacts_describe.c, sfacts_decode.c); the domain's
 * interface to the data-flow is in verify_int.h. */
#ifndef KWGEN_SFACTS_INT_H
#define KWGEN_SFACTS_INT_H

#include "verify/verify_int.h"

#define UMAX 0xffffffffu

/* A fact of reg that says nothing (every value). */
void vf_sf_full(vf_sfact *f, int reg);
/* The fact reg == v. */
void vf_sf_set_const(vf_sfact *f, int reg, uint32_t v);
/* Make intervals and set agree; 0 if the fact is empty (contradiction). */
int vf_sf_normalize(vf_sfact *f);
/* Set from values v[0..n) (sorted in place; n may exceed VF_SETK: then
 * the hull). */
void vf_sf_from_values(vf_sfact *f, int reg, uint32_t *v, size_t n);
/* y = x + c (mod 2^32) as a fact of reg (values only; the caller sets the
 * relation). */
void vf_sf_add_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t c);
/* y = x >> k as a fact of reg. */
void vf_sf_shr_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t k);
/* The fact of SGPR r in F, or a full one in *tmp. */
const vf_sfact *vf_sf_get(const vf_facts *F, int r, vf_sfact *tmp);
/* Store f (of f->reg) in F; a fact that says nothing is dropped. */
void vf_sf_put(vf_facts *F, const vf_sfact *f);
/* SGPR r is overwritten: its fact, relations based on it and an SCC / VCC
 * comparison reading it are gone. */
void vf_sf_kill_reg(vf_facts *F, int r);
/* Join of two facts of one register into *out; 1 if it says anything. */
int vf_sf_join_fact(vf_sfact *out, const vf_sfact *a, const vf_sfact *b);

#endif
