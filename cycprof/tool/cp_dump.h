/* cycprof: everything that happens at exit. */
#ifndef CP_DUMP_H
#define CP_DUMP_H

void cp_dump_init(void);
void cp_dump_all(void);
void cp_dump_after_fork(void);

#endif
