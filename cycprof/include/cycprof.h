/* cycprof.h: client requests for the cycprof Valgrind tool.
 *
 *    #include <valgrind/cycprof.h>
 *
 *    unsigned long long before = CYCPROF_COUNT();
 *    work();
 *    unsigned long long cost = CYCPROF_COUNT() - before;
 *
 *    CYCPROF_REGION_BEGIN("parse");
 *    parse();
 *    CYCPROF_REGION_END("parse");
 *
 * Works in C and C++ (GCC and Clang).  Not under Valgrind every request
 * is a few instructions that do nothing, and the counts read 0.
 *
 * Exactness (amd64 and arm64): a request's own instructions are left
 * out of the counts, so the difference of two CYCPROF_COUNT() reads is exactly the
 * instructions the program ran between the two request sequences,
 * including whatever the compiler emits there (storing the first result,
 * for instance).  A region's cost is likewise the code between its
 * BEGIN and END sequences; with a string literal as the name, nothing
 * else.  Other platforms use Valgrind's generic sequence, whose set-up
 * code is counted.  See docs/regions.md.
 *
 * The callgrind-compatible requests (START/STOP_INSTRUMENTATION, ...)
 * use callgrind's own numbers: a program may use either header. */
#ifndef CYCPROF_H
#define CYCPROF_H

#define CYCPROF_REQ_BASE \
   ((((unsigned int)'C') << 24) | (((unsigned int)'Y') << 16))
#define CYCPROF_REQ_COUNT         (CYCPROF_REQ_BASE + 0)
#define CYCPROF_REQ_THREAD_COUNT  (CYCPROF_REQ_BASE + 1)
#define CYCPROF_REQ_REGION_BEGIN  (CYCPROF_REQ_BASE + 2)
#define CYCPROF_REQ_REGION_END    (CYCPROF_REQ_BASE + 3)
/* The calling thread's count at the end of this request's sequence, for
 * the next request that gives CYCPROF_OWN_SINCE_MARK (below); the
 * sequence has one instruction after Valgrind's special one. */
#define CYCPROF_REQ_MARK          (CYCPROF_REQ_BASE + 4)
/* Request words: args[0] the request, args[1] a name (regions) or 0,
 * args[2] how many instructions the request sequence itself has (low
 * byte; left out of the counts, at most 64) and the name's length above
 * it (0: the name is NUL-terminated).  CYCPROF_OWN_SINCE_MARK in the low
 * byte: leave out everything the thread ran since the end of its last
 * MARK sequence (at most 64), and the one instruction after the special
 * one, for sequences whose set-up the compiler partly emits. */
#define CYCPROF_OWN_SINCE_MARK    0xff

#ifndef CYCPROF_NUMBERS_ONLY
#include <valgrind/valgrind.h>
#include <valgrind/callgrind.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

/* All inside one asm statement: 4 instructions, then Valgrind's special
 * sequence (rolq x4 + xchgq), which Valgrind decodes and counts as one
 * instruction: 5 in all. */
#define CYCPROF__REQUEST0(req)                                              \
   __extension__({                                                          \
      volatile unsigned long long _cp_args[3];                              \
      unsigned long long _cp_result;                                        \
      __asm__ volatile("leaq %1, %%rax\n\t"                                 \
                       "movq %2, (%%rax)\n\t"                               \
                       "movq $5, 16(%%rax)\n\t"                             \
                       "xorl %%edx, %%edx\n\t"                              \
                       "rolq $3, %%rdi; rolq $13, %%rdi\n\t"                \
                       "rolq $61, %%rdi; rolq $51, %%rdi\n\t"               \
                       "xchgq %%rbx, %%rbx"                                 \
                       : "=d"(_cp_result), "=m"(_cp_args)                   \
                       : "i"(req)                                           \
                       : "rax", "cc", "memory");                            \
      _cp_result;                                                           \
   })

/* 6 instructions and the special sequence: 7.  The name's address is
 * taken inside, so a string literal costs nothing outside. */
#define CYCPROF__REQUEST_NAMED(req, name)                                   \
   do {                                                                     \
      volatile unsigned long long _cp_args[3];                              \
      __asm__ volatile("leaq %0, %%rax\n\t"                                 \
                       "movq %1, (%%rax)\n\t"                               \
                       "leaq %2, %%rcx\n\t"                                 \
                       "movq %%rcx, 8(%%rax)\n\t"                           \
                       "movq $7, 16(%%rax)\n\t"                             \
                       "xorl %%edx, %%edx\n\t"                              \
                       "rolq $3, %%rdi; rolq $13, %%rdi\n\t"                \
                       "rolq $61, %%rdi; rolq $51, %%rdi\n\t"               \
                       "xchgq %%rbx, %%rbx"                                 \
                       : "=m"(_cp_args)                                     \
                       : "i"(req), "m"(*(const char*)(name))                \
                       : "rax", "rcx", "rdx", "cc", "memory");              \
   } while (0)

#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))

/* The request's words go below SP; %1 and %2 are the request number's
 * halves.  Then x4 points at them, x3 holds the default result, and
 * after Valgrind's special sequence one instruction gives the stack back. */
#define CYCPROF__A64_WORD0                                                  \
   "sub sp, sp, #32\n\t"                                                    \
   "movz x4, %1, lsl #16\n\t"                                               \
   "movk x4, %2\n\t"                                                        \
   "str x4, [sp]\n\t"
#define CYCPROF__A64_CALL                                                   \
   "mov x4, sp\n\t"                                                         \
   "mov x3, #0\n\t"                                                         \
   "ror x12, x12, #3; ror x12, x12, #13\n\t"                                \
   "ror x12, x12, #51; ror x12, x12, #61\n\t"                               \
   "orr x10, x10, x10\n\t"                                                  \
   "add sp, sp, #32"

/* All inside one asm statement: 8 instructions, Valgrind's special
 * sequence (4 rotates and an orr, which Valgrind decodes and counts as one
 * instruction), and the one that gives the stack back: 10 in all.  The
 * request's words live below SP only while the request runs, so nothing
 * outside the sequence computes their address.  The result is in x3. */
#define CYCPROF__REQUEST0(req)                                              \
   __extension__({                                                          \
      register unsigned long long _cp_x3 __asm__("x3");                     \
      __asm__ volatile(CYCPROF__A64_WORD0                                   \
                       "mov x4, #10\n\t"                                    \
                       "str x4, [sp, #16]\n\t"                              \
                       CYCPROF__A64_CALL                                    \
                       : "=r"(_cp_x3)                                       \
                       : "i"(((req) >> 16) & 0xffff), "i"((req) & 0xffff)   \
                       : "x4", "memory");                                   \
      _cp_x3;                                                               \
   })
/* The name's address reaches the asm in a register, which the compiler
 * sets up outside it (or not at all, when it keeps one from before): a
 * mark request just before lets the tool leave out whatever ran between
 * the two.  Like the mark, the request gives the stack back in the one
 * instruction after the special sequence. */
#define CYCPROF__REQUEST_NAMED(req, name)                                   \
   do {                                                                     \
      (void)CYCPROF__REQUEST0(CYCPROF_REQ_MARK);                            \
      __asm__ volatile(CYCPROF__A64_WORD0                                   \
                       "str %0, [sp, #8]\n\t"                               \
                       "mov x4, %3\n\t"                                     \
                       "str x4, [sp, #16]\n\t"                              \
                       CYCPROF__A64_CALL                                    \
                       :                                                    \
                       : "r"(name), "i"(((req) >> 16) & 0xffff),            \
                         "i"((req) & 0xffff), "i"(CYCPROF_OWN_SINCE_MARK)   \
                       : "x3", "x4", "memory");                             \
   } while (0)

#else

#define CYCPROF__REQUEST0(req)                                              \
   ((unsigned long long)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, (req), 0, 0, 0,   \
                                                        0, 0))
#define CYCPROF__REQUEST_NAMED(req, name)                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT((req), (name), 0, 0, 0, 0)

#endif

/* Instructions counted so far in the process (all threads), leaving out
 * cycprof's own request sequences; 0 when not under cycprof. */
#define CYCPROF_COUNT()         CYCPROF__REQUEST0(CYCPROF_REQ_COUNT)
/* The same for the calling thread only. */
#define CYCPROF_THREAD_COUNT()  CYCPROF__REQUEST0(CYCPROF_REQ_THREAD_COUNT)

/* Named regions: nest, add up over calls and threads.  An END that does
 * not match the innermost open region warns and closes what is inside. */
#define CYCPROF_REGION_BEGIN(name) \
   CYCPROF__REQUEST_NAMED(CYCPROF_REQ_REGION_BEGIN, (name))
#define CYCPROF_REGION_END(name) \
   CYCPROF__REQUEST_NAMED(CYCPROF_REQ_REGION_END, (name))

/* Callgrind's requests, with callgrind's meaning, under cycprof's names. */
#define CYCPROF_START_INSTRUMENTATION  CALLGRIND_START_INSTRUMENTATION
#define CYCPROF_STOP_INSTRUMENTATION   CALLGRIND_STOP_INSTRUMENTATION
#define CYCPROF_TOGGLE_COLLECT         CALLGRIND_TOGGLE_COLLECT
#define CYCPROF_ZERO_STATS             CALLGRIND_ZERO_STATS
#define CYCPROF_DUMP_STATS             CALLGRIND_DUMP_STATS
#define CYCPROF_DUMP_STATS_AT(reason)  CALLGRIND_DUMP_STATS_AT(reason)

#endif /* CYCPROF_NUMBERS_ONLY */
#endif
