def walk(t, d):
    if d == 0:
        return len(t)
    # recursion through C: map() and sorted(key=...) call back into Python
    return sum(map(lambda x: walk(t, d - 1) + x, sorted(t, key=lambda v: -v)))
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(walk([3, 1, 2], 6), fib(16))
