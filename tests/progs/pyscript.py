d = {}
for i in range(2000):
    d["k%d" % i] = i * i
s = sorted(d.items(), key=lambda kv: kv[1] % 97)
print(sum(v for k, v in s[:100]))
