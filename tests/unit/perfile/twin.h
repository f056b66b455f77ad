/* One source file compiled into two objects (libtwin.so and the program),
 * like a libc routine also built into ld.so: `cycprof report --by=file`
 * must give it one row per object. */
static inline long twin_step(long x)
{
    for (int k = 0; k < 3; k++)
        x = (x * 31 + 7) % 1009;
    return x;
}
