-- wrk script: each request asks for a random path from the file named by the URLS variable.
local paths = {}
for line in io.lines(os.getenv("URLS")) do paths[#paths + 1] = line end
math.randomseed(os.time())
request = function()
  return wrk.format("GET", paths[math.random(1, #paths)])
end
