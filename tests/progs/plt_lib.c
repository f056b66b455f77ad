volatile unsigned long libsink;
int libfn(int x) {
    for (int i = 0; i < 30; i++) libsink += i;
    return x + 1;
}
