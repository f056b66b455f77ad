/* A small streaming JSON writer for `--format=json` (docs/cli/json.md):
 * it tracks commas and nesting, escapes strings (control characters,
 * invalid UTF-8 bytes become U+FFFD), and writes one document. */
#ifndef CYCPROF_JSON_OUT_H
#define CYCPROF_JSON_OUT_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

typedef struct json {
    FILE *out;
    int depth;
    int first[JSON_MAX_DEPTH];  /* no member written yet at this level */
    int after_key;
} json_t;

void json_begin(json_t *j, FILE *out);     /* the top-level object */
void json_end(json_t *j);                  /* closes it, adds a newline */

void json_key(json_t *j, const char *key); /* before a member's value */
void json_open_obj(json_t *j);
void json_close_obj(json_t *j);
void json_open_arr(json_t *j);
void json_close_arr(json_t *j);

void json_str(json_t *j, const char *s);   /* NULL writes null */
void json_u64(json_t *j, uint64_t v);
void json_i64(json_t *j, int64_t v);
void json_num(json_t *j, double v);        /* non-finite writes null */
void json_bool(json_t *j, int v);
void json_null(json_t *j);

#endif
