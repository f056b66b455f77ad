/* See cost_tables.h. */
#define _POSIX_C_SOURCE 200809L
#include "model/cost_tables.h"
#include "model/event_names.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

void cg_init(cg_profile_t *p)
{
    memset(p, 0, sizeof *p);
    intern_init(&p->names);
    tuplemap_init(&p->lines);
    tuplemap_init(&p->fns);
}

void cg_free(cg_profile_t *p)
{
    intern_free(&p->names);
    for (size_t i = 0; i < p->nev; i++)
        free(p->events[i]);
    free(p->cmd);
    free(p->creator);
    free(p->deterministic);
    tuplemap_free(&p->lines);
    free(p->line_cost);
    tuplemap_free(&p->fns);
    free(p->fn_self);
    free(p->fn_out);
    free(p->fn_in);
    free(p->fn_called);
    free(p->fn_ob);
    for (size_t i = 0; i < p->zk_table_lines; i++)
        free(p->zk_table[i]);
    free(p->zk_table);
    for (size_t i = 0; i < p->zk_callgrind_lines; i++)
        free(p->zk_callgrind[i].text);
    free(p->zk_callgrind);
    memset(p, 0, sizeof *p);
}

int cg_event_index(const cg_profile_t *p, const char *name)
{
    for (size_t i = 0; i < p->nev; i++)
        if (strcmp(p->events[i], name) == 0)
            return (int)i;
    return -1;
}

int cg_event_find(const cg_profile_t *p, const char *name)
{
    return ev_find((const char *const *)p->events, (int)p->nev, name);
}

void cg_event_list(const cg_profile_t *p, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < p->nev; i++) {
        strncat(buf, i ? " " : "", len - strlen(buf) - 1);
        strncat(buf, p->events[i], len - strlen(buf) - 1);
    }
}

const char *cg_event_long_name(const char *ev)
{
    static const char *const tab[][2] = {
        {"Ir", "Instructions"},       {"Dr", "Data reads"},
        {"Dw", "Data writes"},        {"I1mr", "I1 read misses"},
        {"D1mr", "D1 read misses"},   {"D1mw", "D1 write misses"},
        {"ILmr", "LL instr read misses"}, {"DLmr", "LL data read misses"},
        {"DLmw", "LL data write misses"}, {"Bc", "Conditional branches"},
        {"Bcm", "Mispredicted cond. branches"}, {"Bi", "Indirect branches"},
        {"Bim", "Mispredicted ind. branches"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(tab[i][0], ev) == 0)
            return tab[i][1];
    return ev;
}

int cg_keeps_functions(const cg_profile_t *p)
{
    return p->rows == CG_ROWS_ALL || p->rows == CG_ROWS_FUNCTION;
}

int cg_keeps_lines(const cg_profile_t *p)
{
    return p->rows != CG_ROWS_FUNCTION;
}

int cg_keeps_line_numbers(const cg_profile_t *p)
{
    return p->rows == CG_ROWS_ALL || p->rows == CG_ROWS_LINE;
}

size_t cg_fn_record(cg_profile_t *p, uint32_t fl, uint32_t fn, uint32_t ob)
{
    int added;
    size_t i = tuplemap_get(&p->fns, fl, fn, 0, 0, &added);
    if (added) {
        if (p->fns.n > p->fn_cap) {
            size_t nc = cu_grown_cap(p->fn_cap, p->fns.n, p->nev * 8);
            if (!nc)
                cu_oom();
            p->fn_self = cu_realloc(p->fn_self, nc * p->nev * 8);
            p->fn_out = cu_realloc(p->fn_out, nc * p->nev * 8);
            p->fn_in = cu_realloc(p->fn_in, nc * p->nev * 8);
            p->fn_called = cu_realloc(p->fn_called, nc);
            p->fn_ob = cu_realloc(p->fn_ob, nc * sizeof *p->fn_ob);
            p->fn_cap = nc;
        }
        memset(p->fn_self + i * p->nev, 0, p->nev * 8);
        memset(p->fn_out + i * p->nev, 0, p->nev * 8);
        memset(p->fn_in + i * p->nev, 0, p->nev * 8);
        p->fn_called[i] = 0;
        p->fn_ob[i] = ob;
    } else if (p->fn_ob[i] == CG_NONE) {
        p->fn_ob[i] = ob;
    }
    return i;
}

uint64_t *cg_line_record(cg_profile_t *p, uint32_t ob, uint32_t fl,
                          uint32_t fn, uint32_t line)
{
    if (p->rows == CG_ROWS_FILE || p->rows == CG_ROWS_OBJECT)
        fn = line = 0;
    if (p->rows == CG_ROWS_OBJECT)
        fl = 0;
    int added;
    size_t i = tuplemap_get(&p->lines, ob, fl, fn, line, &added);
    if (added) {
        cu_grow(&p->line_cost, &p->line_cost_cap, p->lines.n, p->nev * 8);
        memset(p->line_cost + i * p->nev, 0, p->nev * 8);
    }
    return p->line_cost + i * p->nev;
}
