# MANIFEST.json (one key per line, as json.dump(indent=1) writes it) to
# one line per case: name|dir|org|ptxed-options|files
function unq(s) { sub(/^[ \t]*"/, "", s); sub(/",?[ \t]*$/, "", s); gsub(/\\"/, "\"", s); return s }
function flush() { if (name != "") print name "|" dir "|" org "|" opts "|" files; name = dir = org = opts = files = ""; sect = tool = "" }
/^ \{/ { flush(); next }
/^  "name": / { v = $0; sub(/^  "name": /, "", v); name = unq(v); next }
/^  "dir": / { v = $0; sub(/^  "dir": /, "", v); dir = unq(v); next }
/^  "org": / { v = $0; sub(/^  "org": /, "", v); org = unq(v); next }
/^  "options": / { sect = "options"; next }
/^  "files": / { sect = "files"; next }
/^  [\]}]/ { sect = ""; next }
sect == "options" && /^   "[a-z]+": \[/ { tool = $0; sub(/^   "/, "", tool); sub(/".*/, "", tool); next }
sect == "options" && /^   \]/ { tool = ""; next }
sect == "options" && tool == "ptxed" && /^    "/ { opts = opts (opts == "" ? "" : " ") unq($0); next }
sect == "files" && /^   "/ { files = files (files == "" ? "" : " ") unq($0); next }
END { flush() }
