/* name_ids: a callgrind file's name compression, "(id) name" defining an
 * id and "(id)" referring back to it, in three tables (files, functions,
 * objects: callgrind_reader.c's CTX_*). callgrind numbers each table's
 * names 1, 2, 3, ... as it defines them; such ids are kept in an array
 * indexed by id (4 bytes a name). The format allows any 32-bit id, so an
 * id far past those defined goes to a map instead. */
#ifndef CYCPROF_NAME_IDS_H
#define CYCPROF_NAME_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "model/tuplemap.h"

#define NAME_IDS_TABLES 3

typedef struct name_ids_dense {
    uint32_t *name_plus_1;      /* [id]: the name's string + 1; 0: none */
    size_t cap, n;              /* n ids defined in it */
} name_ids_dense_t;

typedef struct name_ids {
    name_ids_dense_t dense[NAME_IDS_TABLES];
    tuplemap_t sparse;          /* (table, id) -> index in sparse_name */
    uint32_t *sparse_name;
    size_t sparse_cap;
} name_ids_t;

void name_ids_init(name_ids_t *t);
void name_ids_free(name_ids_t *t);
/* Defines (or redefines) id of table as string name. */
void name_ids_define(name_ids_t *t, int table, uint32_t id, uint32_t name);
/* 0 with the name of id in *name, or -1 if it was never defined. */
int name_ids_find(const name_ids_t *t, int table, uint32_t id, uint32_t *name);

#endif
