-- Strings as table keys: lua 5.4 seeds its string hashes from time() and
-- addresses, so without a fixed clock the count changes from run to run.
local t = {}
for i = 1, 20000 do t["key" .. i] = i end
local s = 0
for k, v in pairs(t) do s = (s * 31 + #k + v) % 1000003 end
print(s % 2, math.random(1000) > 0)
