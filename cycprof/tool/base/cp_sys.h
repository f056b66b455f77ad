/* cycprof: the few system calls the tool needs that Valgrind's tool
 * interface does not export (they exist in the core it is linked with). */
#ifndef CP_SYS_H
#define CP_SYS_H

#include "pub_tool_basics.h"

/* The text of an errno value ("No space left on device"). */
const HChar* cp_sys_strerror(UWord err);

/* rename(2): 0, or the errno value (VG_(rename) drops it). */
Int cp_sys_rename(const HChar* from, const HChar* to);

/* Opens directory dir and takes flock(LOCK_EX) on it; returns the fd to
 * pass to cp_sys_unlock_dir, or -1 (then nothing is locked). */
Int  cp_sys_lock_dir(const HChar* dir);
void cp_sys_unlock_dir(Int fd);

/* pread(2): bytes read, or -errno.  It leaves fd's offset alone, so the
 * tool may read a file through the program's own descriptor (opening the
 * file again and closing it would drop the program's fcntl locks on it). */
Long cp_sys_pread(Int fd, void* buf, SizeT count, ULong offset);

/* 0 when path can be executed, else the errno value that says why not. */
Int cp_sys_check_executable(const HChar* path);

/* Opens an existing non-regular file (device, FIFO, /dev/stdout) for
 * writing at its end, without blocking on a FIFO nobody reads; returns
 * the fd or -errno.  The fd stays non-blocking: a write that would wait
 * fails with EAGAIN, and the writer waits with cp_sys_wait_writable. */
Int cp_sys_open_in_place(const HChar* path);

/* Waits until fd accepts a write or timeout_ms pass (-1: no limit):
 * 1 writable (or its reader is gone: the write then says so), 0 the time
 * ran out, -errno. */
Int cp_sys_wait_writable(Int fd, Int timeout_ms);

/* Creates path, which must not exist (a stale file of a dead process
 * with our pid is removed first); returns the fd or -errno. */
Int cp_sys_create_new(const HChar* path);

/* In a forked child that will never run the client again: drops its
 * copy of the client's memory (madvise MADV_DONTNEED), so that the
 * child's resident size is Valgrind's alone.  The parent keeps its own. */
void cp_sys_forget_client_memory(void);

/* A transparent huge page on amd64 and arm64 (4 KiB base pages). */
#define CP_HUGE_PAGE_BYTES (2ul << 20)

/* madvise(MADV_COLLAPSE) on the huge page at start (aligned, one of its
 * small pages present): its pages become one huge page now, if the kernel
 * has one to give, and the mapping's flags stay as they are.  False where
 * the kernel does not know the advice (Linux before 6.1). */
Bool cp_sys_collapse_huge_page(void* start);

/* madvise(MADV_DONTNEED) on the small pages inside [start, start+bytes):
 * memory that was never used and never will be. */
void cp_sys_release_pages(void* start, SizeT bytes);

/* setpgid(0, 0). */
void cp_sys_new_process_group(void);

/* kill(2). */
void cp_sys_kill(Int pid, Int sig);

/* Sleeps for ms milliseconds. */
void cp_sys_sleep_ms(Int ms);

/* Milliseconds of a monotonic clock, for time limits. */
ULong cp_sys_now_ms(void);

#endif
