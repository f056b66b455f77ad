# str hashes (and so dict and set layouts) depend on the hash seed python3
# takes from getrandom when PYTHONHASHSEED is not set.
words = {"w%d" % i: i for i in range(5000)}
seen = set()
total = 0
for w in words:
    seen.add(w[::-1])
    total = (total * 31 + len(w)) % 1000003
print(len(seen), total % 2)
