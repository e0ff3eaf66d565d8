-- wrk: a POST per request with a fresh Idempotency-Key (a UUID v4), as a partner sends a new
-- command each time; the body from WRK_BODY, the other headers from wrk's command line (-H).
function init(args)
  wrk.method = "POST"
  wrk.body = os.getenv("WRK_BODY")
  -- Each thread its own sequence: the address of a new table differs per thread's Lua state.
  math.randomseed(os.time() + (tonumber(string.match(tostring({}), "0x(%x+)") or "0", 16) % 1000003))
end

local function uuid()
  return (string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(c)
    return string.format("%x", c == "x" and math.random(0, 15) or math.random(8, 11))
  end))
end

function request()
  -- wrk.format uses the headers given instead of wrk.headers: copy them, add the key.
  local headers = {}
  for k, v in pairs(wrk.headers) do
    headers[k] = v
  end
  headers["Idempotency-Key"] = uuid()
  return wrk.format(nil, nil, headers)
end
