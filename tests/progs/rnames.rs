// tests/t-rustnames.sh: an inherent generic method, a trait method, a
// closure of a module, and two functions whose symbols are not mangled
// (#[no_mangle], #[export_name]; rustc refuses #[inline] on them, LLVM
// inlines them all the same). Built with -O they are all inlined into
// shapes::run; built with -C opt-level=0 none is, and each is a real frame
// whose symbol names it. The two builds must name each function alike.
mod shapes {
    pub struct Acc<T> {
        pub sum: T,
    }

    impl<T: Copy + std::ops::BitXor<Output = T>> Acc<T> {
        #[inline]
        pub fn add(&mut self, x: T) {
            self.sum = self.sum ^ x;
        }
    }

    pub trait Step {
        fn step(&self, x: u64) -> u64;
    }

    pub struct Lcg;

    impl Step for Lcg {
        #[inline]
        fn step(&self, x: u64) -> u64 {
            x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407)
        }
    }

    #[no_mangle]
    pub extern "C" fn rnames_plain(x: u64) -> u64 {
        x.rotate_left(5) ^ 0x5555
    }

    #[export_name = "rnames_exported"]
    pub fn exported(x: u64) -> u64 {
        x.wrapping_add(0x1234) >> 1
    }

    #[inline(never)]
    pub fn run(n: u64) -> u64 {
        let mut acc = Acc { sum: 0u64 };
        let g = Lcg;
        let mix = |x: u64| (x ^ (x >> 29)) & 0xffff;
        let mut x = 1;
        let mut k = 0;
        while k < n {
            x = g.step(x);
            acc.add(mix(x));
            acc.add(rnames_plain(exported(x)));
            k += 1;
        }
        acc.sum
    }
}

fn main() {
    let n = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    println!("{}", shapes::run(n));
}
