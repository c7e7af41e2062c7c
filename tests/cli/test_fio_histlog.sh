#!/bin/bash
# CLI tests of fio's latency histogram log (src/io/log/histlog.c): write_hist_log=NAME with
# log_hist_msec and log_hist_coarseness writes NAME_clat_hist.N.log in fio 3.33's layout
# (msec, ddir, bs, then 1856 / 2^coarseness columns of fio's bins), which fio's own readers
# take: fiologparser_hist.py and fio-histo-log-pctiles.py (Debian's fio package ships them,
# gzipped, under /usr/share/doc/fio). The percentiles they read from the log must be those
# of the same I/Os in the per-I/O clat log of the same run (write_lat_log) to within the
# width of fio's bin; the same check is made on fio's own log of the same job, so that the
# comparison is shown to hold for fio's file too. Without fio, or a python3 with numpy and
# pandas (python3-numpy, python3-pandas: the readers import them), those parts skip, visibly.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

"$SB_BIN" io --filename="$T/f" --size=8m --rw=write >/dev/null 2>&1
JOB=(--name=h --filename="$T/f" --size=8m --bs=4k --rw=randread --ioengine=psync --time_based
     --runtime=1)

# ---- the file and its layout ----
check_exit "write_hist_log runs" 0 "$SB_BIN" io "${JOB[@]}" --write_hist_log=s --log_hist_msec=100 \
    --write_lat_log=s
check "s_clat_hist.1.log written" test -s s_clat_hist.1.log
check "every line: msec, ddir 0, bs 4096 and 1856 bins" \
    test "$(awk -F', ' '$2 != 0 || $3 != 4096 || NF != 1859' s_clat_hist.1.log | wc -l)" = 0
check "the lines' times grow" \
    awk -F', ' 'NR > 1 && $1 < last { exit 1 } { last = $1 } END { exit NR < 2 }' s_clat_hist.1.log
check "each line counts the window's I/Os: together at most all of them" \
    test "$(awk -F', ' '{ for (i = 4; i <= NF; i++) s += $i } END { print s }' s_clat_hist.1.log)" \
         -le "$(grep -c . s_clat.1.log)"
check_exit "log_hist_coarseness=3" 0 "$SB_BIN" io "${JOB[@]}" --write_hist_log=c \
    --log_hist_msec=100 --log_hist_coarseness=3
check "... 232 columns (1856 / 8)" test "$(awk -F', ' 'NF != 235' c_clat_hist.1.log | wc -l)" = 0 -a -s c_clat_hist.1.log
check_exit "log_hist_msec=0 (fio's default)" 0 "$SB_BIN" io "${JOB[@]}" --write_hist_log=z
check "... the file is made and holds no line, as fio's" test -f z_clat_hist.1.log -a ! -s z_clat_hist.1.log
check_exit "numjobs=2, per_job_logs=0" 0 "$SB_BIN" io "${JOB[@]}" --numjobs=2 --per_job_logs=0 \
    --write_hist_log=p --log_hist_msec=100
check "... one file, both threads' lines" \
    test -s p_clat_hist.log -a ! -e p_clat_hist.1.log -a "$(grep -c . p_clat_hist.log)" -ge 2
check_exit "log_hist_coarseness=7 is refused" 2 "$SB_BIN" io "${JOB[@]}" --write_hist_log=x \
    --log_hist_coarseness=7
check_one_line "... in one line naming it" "log_hist_coarseness"
check_exit "write_hist_log with log_store_compressed is refused" 2 "$SB_BIN" io "${JOB[@]}" \
    --write_hist_log=x --log_hist_msec=100 --log_store_compressed=1
check_one_line "... in one line naming both" "write_hist_log with log_store_compressed"

# ---- fio's readers ----
PY=
for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null && "$p" -c 'import numpy, pandas' 2>/dev/null && { PY=$p; break; }
done
tool() { # the file of fio's package whose name ends in $1, gunzipped into $T
    local f
    f=$(dpkg -L fio 2>/dev/null | grep -m1 "/$1\(\.gz\)\?\$")
    [ -n "$f" ] || return 1
    case "$f" in *.gz) zcat "$f" >"$T/$1" ;; *) cp "$f" "$T/$1" ;; esac
}
if [ -z "$PY" ] || ! command -v fio >/dev/null || ! tool fiologparser_hist.py || ! tool fio-histo-log-pctiles.py; then
    echo "ok # SKIP fio's histogram log readers: needs fio, fiologparser_hist.py, fio-histo-log-pctiles.py and a python3 with numpy and pandas"
    finish
fi

# The percentiles fio's two readers compute from HIST, against those of the same I/Os in
# the per-I/O clat log CLAT (its first N lines of ddir 0, N the count the histogram log
# holds), each within the width of fio's bin of the value: prints "ok" or what differs.
cat >"$T/cmp.py" <<'EOF'
import subprocess, sys
py, hist, clat, msec = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
n = 0
for line in open(hist):
    n += sum(int(x) for x in line.split(',')[3:])
vals = []
for line in open(clat):
    f = line.split(',')
    if int(f[2]) == 0 and len(vals) < n:
        vals.append(int(f[1]))
vals.sort()
if n < 100 or len(vals) != n:
    sys.exit("%d I/Os in the histogram log, %d in the clat log" % (n, len(vals)))
def exact(p):
    k = max(1, -(-int(p * n) // 100))
    return vals[k - 1]
def width(v):  # fio's bin width at v ns: 1 below 128, then 2^(msb - 6)
    v = int(v)
    return 1 if v < 128 else 1 << (v.bit_length() - 1 - 6)
# fio-histo-log-pctiles.py interpolates inside the bin that holds the percentile: within its
# width. fiologparser_hist.py interpolates between the midpoints of neighbouring bins (its
# weighted_percentile), so where the bins are sparse (the tail) it can land up to a
# neighbour's width away: within two.
slack = {'fiologparser_hist': 2, 'fio-histo-log-pctiles': 1}
pcts = [50.0, 90.0, 99.0]
# one interval over the whole run, each line counted whole (--noweight: its weighting spreads
# a line over the interval before it, which is for intervals shorter than the run)
out = subprocess.run([py, 'fiologparser_hist.py', '-i', '1000000', '--noweight', '--percentiles', '50:90:99',
                      '--decimals', '0', hist], capture_output=True, text=True, check=True).stdout
rows = [l for l in out.splitlines() if l and l[0].isdigit()]
got1 = [float(x) for x in rows[0].split(',')[5:8]]  # end-time, samples, min, avg, median, 50%, 90%, 99%, max
# its --output-unit nsec fails in fio 3.33's copy (a Python scoping error): usec, times 1000
out = subprocess.run([py, 'fio-histo-log-pctiles.py', '--log-hist-msec', msec, '--time-quantum', '1000',
                      '--percentiles', '50', '90', '99', '--', hist],
                     capture_output=True, text=True, check=True).stdout
rows = [l for l in out.splitlines() if l.strip() and l.strip()[0].isdigit() and ',' in l]
got2 = [1000 * float(x) for x in rows[0].split(',')[2:5]]  # msec-since-start, samples, then the percentiles
bad = []
for name, got in (('fiologparser_hist', got1), ('fio-histo-log-pctiles', got2)):
    for p, g in zip(pcts, got):
        e = exact(p)
        if abs(g - e) > slack[name] * max(width(e), width(g)):
            bad.append('%s p%g %g, the clat log %d' % (name, p, g, e))
print('; '.join(bad) if bad else 'ok')
EOF
cmp_logs() { (cd "$T" && "$PY" cmp.py "$PY" "$1" "$2" "$3" 2>&1 | tail -1); }
r=$(cmp_logs s_clat_hist.1.log s_clat.1.log 100)
check "storbench's log: fio's readers' p50/p90/p99 are its clat log's, within a bin ($r)" test "$r" = ok
"$SB_BIN" io "${JOB[@]}" --ioengine=libaio --iodepth=4 --write_hist_log=a --log_hist_msec=100 \
    --write_lat_log=a >/dev/null 2>&1
r=$(cmp_logs a_clat_hist.1.log a_clat.1.log 100)
check "... and with libaio, iodepth=4 (both logs of fio's clat, from the submission) ($r)" test "$r" = ok
fio "${JOB[@]}" --write_hist_log=fio --log_hist_msec=100 --write_lat_log=fio --output=/dev/null >/dev/null 2>&1
check "fio's log on the same job: the same columns as storbench's" \
    test "$(awk -F', ' '{ print NF }' fio_clat_hist.1.log | sort -u)" = "$(awk -F', ' '{ print NF }' s_clat_hist.1.log | sort -u)"
r=$(cmp_logs fio_clat_hist.1.log fio_clat.1.log 100)
check "fio's log: the same check holds ($r)" test "$r" = ok
finish
