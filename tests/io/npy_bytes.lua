--- The bytes of a .npy file, built from NumPy's format description (docs:
-- numpy.lib.format) so that the readers are tested against the format and
-- not against Luma's own writer; shared by io_spec and mmap_spec
-- (require("io.npy_bytes")).
--
-- npy(dict, data [, major]): magic, version (1 by default, or 2/3 with a
-- 4-byte length), the little-endian header length, the header dictionary
-- padded with spaces and a newline so that the data starts at a multiple
-- of 64, then the data bytes.
-- SPDX-License-Identifier: MIT
return function(dict, data, major)
  major = major or 1
  local pre = major == 1 and 10 or 12
  local total = pre + #dict + 1
  total = (total + 63) // 64 * 64
  local header = dict .. string.rep(" ", total - pre - #dict - 1) .. "\n"
  local len = major == 1 and string.pack("<I2", #header) or string.pack("<I4", #header)
  return "\147NUMPY" .. string.char(major, 0) .. len .. header .. data
end
