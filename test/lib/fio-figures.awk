# Per-job figures from fio's (or ncqsim's) JSON: name group rios rbytes wios wbytes
# (an entry without a jobname — fio 3.33 writes one for each stats=0 job —
# is passed over)
/^    \{/ { if (name != "") out(); next }
/^      "jobname" : / { if (name != "") out(); s=$0; sub(/^[^:]*: "/, "", s); sub(/",$/, "", s); name=s; dir=""; rb=rn=wb=wn=0; next }
/^      "groupid" : / { g=$3; sub(/,/, "", g); next }
/^      "(read|write|trim|sync)" : \{/ { dir=$1; gsub(/"/, "", dir); next }
/^        "io_bytes" : / { v=$3; sub(/,/, "", v); if (dir=="read") rb=v; else if (dir=="write") wb=v; next }
/^        "total_ios" : / { v=$3; sub(/,/, "", v); if (dir=="read") rn=v; else if (dir=="write") wn=v; next }
function out() { print name, g, rn, rb, wn, wb; name="" }
END { if (name != "") out() }
