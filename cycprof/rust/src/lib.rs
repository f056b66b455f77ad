//! Client requests for the cycprof Valgrind tool (`valgrind --tool=cycprof`),
//! from Rust: exact instruction counts, named regions, and callgrind's
//! start/stop/toggle/zero/dump requests.
//!
//! ```no_run
//! let before = cycprof::count();
//! let x = (0..1000u64).sum::<u64>();
//! let cost = cycprof::count() - before;   // exact, 0 when not under cycprof
//!
//! let parsed = cycprof::region("parse", || x.to_string());
//! {
//!     let _g = cycprof::Region::new("print");
//!     println!("{} {}", parsed, cost);
//! }   // the region ends here
//! ```
//!
//! Not under Valgrind every call is a handful of instructions that do
//! nothing and the counts are 0.  Under Valgrind's other tools the
//! requests are unknown to them and ignored.  See docs/regions.md.
//!
//! Exactness (x86_64): each request's own instruction sequence is left out
//! of the counts, so the difference of two [`count`] reads is the
//! instructions the program ran between them.  A region's cost also
//! includes the (usually two) instructions with which the compiler loads
//! the name's address and length for its end.
#![no_std]
// Request numbers are written as literals in the x86_64 asm templates
// (checked against the constants below), so not every target uses every
// constant.
#![allow(dead_code)]

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use core::arch::asm;

const CYCPROF_BASE: u64 = (b'C' as u64) << 24 | (b'Y' as u64) << 16;
const REQ_COUNT: u64 = CYCPROF_BASE;
const REQ_THREAD_COUNT: u64 = CYCPROF_BASE + 1;
const REQ_REGION_BEGIN: u64 = CYCPROF_BASE + 2;
const REQ_REGION_END: u64 = CYCPROF_BASE + 3;

const _: () = assert!(REQ_COUNT == 0x43590000 && REQ_THREAD_COUNT == 0x43590001);
const _: () = assert!(REQ_REGION_BEGIN == 0x43590002 && REQ_REGION_END == 0x43590003);

const CALLGRIND_BASE: u64 = (b'C' as u64) << 24 | (b'T' as u64) << 16;
const REQ_DUMP_STATS: u64 = CALLGRIND_BASE;
const REQ_ZERO_STATS: u64 = CALLGRIND_BASE + 1;
const REQ_TOGGLE_COLLECT: u64 = CALLGRIND_BASE + 2;
const REQ_DUMP_STATS_AT: u64 = CALLGRIND_BASE + 3;
const REQ_START_INSTRUMENTATION: u64 = CALLGRIND_BASE + 4;
const REQ_STOP_INSTRUMENTATION: u64 = CALLGRIND_BASE + 5;

/// Longest name passed by length (longer names are cut by the tool).
const MAX_NAME: usize = 255;

/// Valgrind's amd64 client-request sequence: RAX points at the argument
/// block, RDX gets the result.  Valgrind decodes it as one instruction;
/// elsewhere the rotations cancel out and the xchg does nothing.
#[cfg(target_arch = "x86_64")]
macro_rules! special_sequence {
    () => {
        "rol rdi, 3\nrol rdi, 13\nrol rdi, 61\nrol rdi, 51\nxchg rbx, rbx"
    };
}

/// A request with its whole argument block built inside the asm, so that
/// the tool knows its instruction count (args[2]: 7, the four `rol`s and
/// the `xchg` being one instruction to Valgrind): count and thread_count.
#[cfg(target_arch = "x86_64")]
macro_rules! self_contained_request {
    ($req:literal) => {{
        let result: u64;
        // SAFETY: Valgrind's client-request sequence; outside Valgrind the
        // rotations cancel out and xchg rbx, rbx does nothing.  The pushes
        // are popped before the block ends.
        unsafe {
            asm!(
                "push 7",
                "push 0",
                concat!("push ", $req),
                "mov rax, rsp",
                "xor edx, edx",
                special_sequence!(),
                "add rsp, 24",
                out("rax") _,
                out("rdx") result,
            );
        }
        result
    }};
}

/// Valgrind's generic request: args[0..6] in memory, default 0.
#[inline(always)]
#[allow(unused_variables)]
fn request(args: &[u64; 6]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let result: u64;
        // SAFETY: as above; Valgrind reads the six words at rax.
        unsafe {
            asm!(
                "xor edx, edx",
                special_sequence!(),
                in("rax") args.as_ptr(),
                out("rdx") result,
            );
        }
        result
    }
    #[cfg(target_arch = "aarch64")]
    {
        let result: u64;
        // SAFETY: Valgrind's arm64 sequence: x4 holds the argument block,
        // x3 the default and the result.
        unsafe {
            asm!(
                "ror x12, x12, #3",
                "ror x12, x12, #13",
                "ror x12, x12, #51",
                "ror x12, x12, #61",
                "orr x10, x10, x10",
                in("x4") args.as_ptr(),
                inout("x3") 0u64 => result,
            );
        }
        result
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        0
    }
}

/// A named request: the name goes by address and length (args[2] holds
/// the request's own instruction count, 7, in its low byte and the length
/// above).  Own instructions: 3 pushes, mov, xor, the special sequence and
/// the add.
#[cfg(target_arch = "x86_64")]
macro_rules! named_request {
    ($req:literal, $name:expr) => {{
        let name: &str = $name;
        let len = if name.len() > MAX_NAME { MAX_NAME } else { name.len() };
        // SAFETY: as for self_contained_request.
        unsafe {
            asm!(
                "push {own}",
                "push {name}",
                concat!("push ", $req),
                "mov rax, rsp",
                "xor edx, edx",
                special_sequence!(),
                "add rsp, 24",
                own = in(reg) (7 | (len as u64) << 8),
                name = in(reg) name.as_ptr(),
                out("rax") _,
                out("rdx") _,
            );
        }
    }};
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn named_request(req: u64, name: &str) {
    let len = if name.len() > MAX_NAME { MAX_NAME } else { name.len() };
    request(&[req, name.as_ptr() as u64, (len as u64) << 8, 0, 0, 0]);
}

/// Instructions counted so far in the process (all threads), leaving out
/// cycprof's own requests; 0 when not running under cycprof.
#[inline(always)]
pub fn count() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        self_contained_request!("0x43590000")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        request(&[REQ_COUNT, 0, 0, 0, 0, 0])
    }
}

/// Instructions counted so far in the calling thread.
#[inline(always)]
pub fn thread_count() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        self_contained_request!("0x43590001")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        request(&[REQ_THREAD_COUNT, 0, 0, 0, 0, 0])
    }
}

/// Opens the region `name` (they nest, and add up over calls and threads).
#[inline(always)]
pub fn region_begin(name: &str) {
    #[cfg(target_arch = "x86_64")]
    named_request!("0x43590002", name);
    #[cfg(not(target_arch = "x86_64"))]
    named_request(REQ_REGION_BEGIN, name);
}

/// Closes the region `name`; a name that is not the innermost open region
/// gives a warning in the tool's log (and closes what is inside it).
#[inline(always)]
pub fn region_end(name: &str) {
    #[cfg(target_arch = "x86_64")]
    named_request!("0x43590003", name);
    #[cfg(not(target_arch = "x86_64"))]
    named_request(REQ_REGION_END, name);
}

/// Runs `f` inside the region `name`.
#[inline(always)]
pub fn region<T, F: FnOnce() -> T>(name: &str, f: F) -> T {
    let _guard = Region::new(name);
    f()
}

/// A region that ends when the guard is dropped.
#[must_use = "the region ends when the guard is dropped"]
pub struct Region<'a> {
    name: &'a str,
}

impl<'a> Region<'a> {
    #[inline(always)]
    pub fn new(name: &'a str) -> Region<'a> {
        region_begin(name);
        Region { name }
    }
}

impl<'a> Drop for Region<'a> {
    #[inline(always)]
    fn drop(&mut self) {
        region_end(self.name);
    }
}

/// Callgrind's START_INSTRUMENTATION.
pub fn start() {
    request(&[REQ_START_INSTRUMENTATION, 0, 0, 0, 0, 0]);
}

/// Callgrind's STOP_INSTRUMENTATION.
pub fn stop() {
    request(&[REQ_STOP_INSTRUMENTATION, 0, 0, 0, 0, 0]);
}

/// Callgrind's TOGGLE_COLLECT.
pub fn toggle_collect() {
    request(&[REQ_TOGGLE_COLLECT, 0, 0, 0, 0, 0]);
}

/// Callgrind's ZERO_STATS.
pub fn zero() {
    request(&[REQ_ZERO_STATS, 0, 0, 0, 0, 0]);
}

/// Callgrind's DUMP_STATS_AT(reason) (DUMP_STATS for an empty reason):
/// writes a numbered part of the profile and zeroes the counts.
pub fn dump(reason: &str) {
    if reason.is_empty() {
        request(&[REQ_DUMP_STATS, 0, 0, 0, 0, 0]);
        return;
    }
    // The request takes a NUL-terminated string.
    let mut buf = [0u8; MAX_NAME + 1];
    let n = if reason.len() > MAX_NAME { MAX_NAME } else { reason.len() };
    buf[..n].copy_from_slice(&reason.as_bytes()[..n]);
    request(&[REQ_DUMP_STATS_AT, buf.as_ptr() as u64, 0, 0, 0, 0]);
}
