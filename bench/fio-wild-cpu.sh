#!/bin/bash
# fio-wild-cpu — on the corpus's job files that both fio and storbench run, is storbench's
# CPU per I/O at most fio's, and does its JSON carry every key fio's does?
#
#   bench/fio-wild-cpu.sh [--rounds N] [--runtime S] [--dir TARGET] [--exit-codes] [--per-job] [DIR...]
#
# For each job file in DIR (default tests/data/fio-wild/{dev,heldout,dev2,heldout2}) that both
# `fio --parse-only` and `storbench io --parse-only` accept, a tamed copy is run by
# both tools, N rounds (default 3), alternating which goes first, on the same target:
# the keys that name where and how much (directory, size, runtime, numjobs, devices,
# logs, exec_*, allow_file_create) are dropped from every section and a [global] first in
# the file sets directory=TARGET (a private scratch under --dir, default /var/tmp),
# size=16m (or the file's largest block size, if larger), runtime=S (default 2)
# time_based, one job per section (numjobs dropped); a filename= becomes files of the
# scratch (a [global]'s shared by its jobs, a section's its own), and jobs at different
# offsets of them stay apart (each distinct offset a size-long slot); an engine neither has
# here (rados, spdk, ...) becomes psync; direct=0 and buffered=1 (tmpfs and some
# filesystems refuse O_DIRECT); thinktime* and rate* go; iodepth is cut so that a job's
# buffers (iodepth x largest bs) stay within 512 MiB, and a verify job's size holds that
# many blocks of the largest bs (storbench refuses fewer); inline comments (" ; ...") go; a
# file-op engine's job (filecreate, filestat, filedelete) keeps nrfiles (at most 1000) and
# filesize (at most 16m) and is not time_based (it would count blocks it never touches).
# A file without a job section (a [global] for others to include) is skipped. Each run's user+system CPU (of the whole process tree, from /usr/bin/time)
# divided by the I/Os its JSON reports (every job, every direction) is its CPU per I/O.
# Prints one line per file:
#     FILE  fio_ns  sb_ns  ratio(sb/fio, geometric mean over rounds) [min..max]  missing KEYS
# (fio's job-level keys, of any job, that storbench's same job lacks)
# and, where the two tools' I/O differs in kind (a direction only one did, or bytes per I/O a
# quarter apart: then the ratio compares different work), both tools' bytes per I/O of the
# jobs that differ
# then the geometric mean of the ratios with min and max, the files where storbench
# spent more, and the union of fio's JSON keys (job level, paths) that storbench's
# JSON lacks. Figures are noisy unless the machine is quiet: run it alone, under the
# bench lock:  flock /work/bench.lock bench/fio-wild-cpu.sh
#
# --per-job: a file whose jobs run one after another (each after the first has stonewall or
# wait_for_previous, its own or a [global]'s; no wait_for=) is cut into one tamed file per job,
# each run by both tools, and a round's ratio is the geometric mean of the jobs' ratios (fio
# and storbench columns likewise): jobs of different costs each run for the same time, so the
# whole file's CPU over all its I/Os weighs them by how many each tool did, and a tool that
# did more of the dear ones (1 MiB against 4 KiB) looks worse whatever each job costs.
#
# --exit-codes: no CPU figures; each file storbench's --parse-only accepts is tamed as
# above and run once by each tool (normal output), and one line per file gives
#     FILE  fio=RC  sb=RC  [the first error line of the one that failed]
# then how many ran to completion (exit 0) in each.
#
#   SB=./storbench FIO=fio
# Exit 0 when it ran, 1 when a tool is missing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${SB:-$ROOT/storbench}
FIO=${FIO:-fio}
ROUNDS=3 RUNTIME=2 BASE=/var/tmp EXITCODES=0 PERJOB=0
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS=$2; shift 2 ;;
        --runtime) RUNTIME=$2; shift 2 ;;
        --dir) BASE=$2; shift 2 ;;
        --exit-codes) EXITCODES=1; shift ;;
        --per-job) PERJOB=1; shift ;;
        --) shift; break ;;
        -*) echo "fio-wild-cpu: unknown flag $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ -x "$SB" ] || { echo "fio-wild-cpu: $SB not built (make), or set SB" >&2; exit 1; }
command -v "$FIO" >/dev/null || { echo "fio-wild-cpu: no fio" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "fio-wild-cpu: /usr/bin/time missing (apt install time)" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$ROOT"/tests/data/fio-wild/{dev,heldout,dev2,heldout2,dev3,heldout3,dev4,heldout4,dev5,heldout5}
W=$(mktemp -d "$BASE/sb-fiowildcpu.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
# a copy of the binary: a rebuild of the tree during the pass must not change or break it
cp "$SB" "$W/storbench" || exit 1
SB=$W/storbench
export SB FIO ROUNDS RUNTIME W EXITCODES PERJOB
python3 - "$@" <<'PYEOF'
import json, math, os, re, subprocess, sys, glob, shutil

SB, FIO, W = os.environ["SB"], os.environ["FIO"], os.environ["W"]
ROUNDS, RUNTIME = int(os.environ["ROUNDS"]), os.environ["RUNTIME"]
DROP = {"filename", "directory", "filename_format", "size", "filesize", "io_size", "io_limit",
        "runtime", "timeout", "time_based", "ramp_time", "startdelay", "loops", "numjobs",
        "nrfiles", "nr_files", "openfiles", "offset", "offset_increment", "number_ios",
        "write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log", "write_iolog",
        "read_iolog", "exec_prerun", "exec_postrun", "lockmem", "cpus_allowed", "cpumask",
        "numa_cpu_nodes", "numa_mem_policy", "ioscheduler", "uid", "gid", "cgroup",
        "verify_state_save", "verify_state_load", "rate", "rate_iops", "rate_min", "thinktime",
        "zonemode", "zonesize", "zonerange", "zoneskip", "create_only", "per_job_logs",
        "trim_percentage", "pool", "clientname", "busy_poll", "hipri", "sqthread_poll",
        "allow_mounted_write", "allow_file_create", "group_reporting",
        "kb_base", "unit_base", "output", "status-interval"}
ENGINES = {"psync", "sync", "pvsync", "pvsync2", "vsync", "libaio", "io_uring", "posixaio", "mmap", "null",
           "filecreate", "filestat", "filedelete"}

BS_KEYS = {"bs", "blocksize", "bsrange", "blocksize_range", "bssplit", "blocksize_split"}

def size_bytes(tok):
    m = re.match(r"(\d+)\s*([kmgt]?)", tok.lower())
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " ") if m else 0

def tame(src, dst):
    """The tamed copy; None when the file defines no job (a [global] to include)."""
    out = ["[global]", f"directory={W}/t", "size=16m", f"runtime={RUNTIME}", "time_based",
           "group_reporting=0"]
    # a file-op engine does no I/O: time_based would have fio count blocks it never touches
    # (millions a second) where storbench does each file's one operation; such a job keeps
    # its files' count and size (at most 1000 files of at most 16 MiB) and runs once
    fileops = re.search(r"(?im)^\s*ioengine\s*=\s*file(create|stat|delete)\b", open(src, errors="replace").read())
    if fileops:
        out.remove("time_based")
    nsec, sec, maxbs, jobs, offsets, depth, verify = 0, "", 0, 0, [0], [], False
    for line in open(src, errors="replace"):
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        if s.startswith("["):
            out.append(s)
            nsec, sec = nsec + 1, s
            jobs += s.lower() != "[global]"
            continue
        s = re.sub(r"\s+[;#].*$", "", s)  # an inline comment, as both tools read one
        key = re.split(r"[=\s]", s, 1)[0].strip().lower()
        val = s.split("=", 1)[1].strip() if "=" in s else ""
        if key in BS_KEYS:  # the file's size must hold its largest block (else both refuse)
            maxbs = max([maxbs] + [size_bytes(t) for t in re.findall(r"\d+\s*[kmgtKMGT]?", val)])
        if key == "filename":
            # the files a job names, in the scratch (as many as named): a [global]'s are
            # every later job's, files they share as in the original (a job that reads what
            # an earlier one wrote needs them); a section's are its own (sections of the
            # same name would otherwise share $jobname.$jobnum.$filenum in fio, one file,
            # and not in storbench, a private directory per job, and run different work)
            g = "g" if sec.lower() in ("", "[global]") else "s"
            n = len([x for x in re.split(r"(?<!\\):", val) if x]) or 1
            out.append("filename=" + ":".join(f"{g}{nsec}.{i}" for i in range(n)))
            continue
        if key == "offset" and re.fullmatch(r"\d+\s*[kmgtKMGT]?i?[bB]?", val):
            # jobs sharing files at different offsets (a verify job each) keep apart: each
            # distinct offset becomes its own size-long slot (fixed once size is known)
            if size_bytes(val) not in offsets:
                offsets.append(size_bytes(val))
            out.append(("offset", offsets.index(size_bytes(val))))
            continue
        if fileops and key in ("nrfiles", "nr_files", "filesize") and re.fullmatch(r"\d+\s*[kmgtKMGT]?i?[bB]?", val):
            n = size_bytes(val)
            out.append(f"{key}={min(n, 1000)}" if key != "filesize" else f"filesize={min(n, 16 << 20)}")
            continue
        if key in DROP or key.startswith(("include", "thinktime", "rate")):
            continue  # thinktime_* and rate_* without thinktime and rate shape nothing: refused
        if key == "iodepth":
            depth.append(len(out))
        if key == "verify" and val.lower() not in ("0", "none", ""):
            verify = True
        if key == "buffered":
            s = "buffered=1"  # buffered=0 is direct=1: the same as direct below
        if key == "ioengine":
            if val not in ENGINES:
                s = "ioengine=psync"
        if key == "direct":
            s = "direct=0"  # tmpfs and some filesystems refuse O_DIRECT; both tools alike
        out.append(s)
    if not jobs:
        return None
    maxdepth = 1
    for i in depth:  # a job's buffers (iodepth x bs) at most 512 MiB, as numjobs at most 2
        d = size_bytes(out[i].split("=", 1)[1])
        if maxbs and d * maxbs > 512 << 20:
            d = max(1, (512 << 20) // maxbs)
            out[i] = f"iodepth={d}"
        maxdepth = max(maxdepth, d)
    size = max(maxbs, 16 << 20)
    if verify:  # storbench refuses a verify job with fewer blocks than I/Os in flight
        size = max(size, maxbs * maxdepth)
    if size > 16 << 20:
        out[2] = f"size={size}"
    out = [f"offset={x[1] * size}" if isinstance(x, tuple) else x for x in out]
    open(dst, "w").write("\n".join(out) + "\n")
    return dst

def split_jobs(tf):
    """--per-job: one tamed file per job section (with every [global] before it) when the
    jobs run one after another; else [tf]."""
    head, parts, cur, serial = [], [], None, True
    for line in open(tf).read().splitlines():
        if line.startswith("["):
            if cur is not None:
                parts.append(cur)
            cur = list(head) + [line] if line.lower() != "[global]" else None
            if cur is None:
                head.append(line)
            continue
        key = re.split(r"[=\s]", line, 1)[0].lower()
        if key == "wait_for":
            return [tf]
        (head if cur is None else cur).append(line)
    if cur is not None:
        parts.append(cur)
    for i, part in enumerate(parts[1:]):
        keys = [re.split(r"[=\s]", l, 1)[0].lower() + "=" + (l.split("=", 1)[1] if "=" in l else "1")
                for l in part]
        if not any(k in ("stonewall=1", "wait_for_previous=1", "stonewall=true") for k in keys):
            serial = False
    if len(parts) < 2 or not serial:
        return [tf]
    out = []
    for i, part in enumerate(parts):
        open(f"{tf}.{i}", "w").write("\n".join(part) + "\n")
        out.append(f"{tf}.{i}")
    return out

def accepted(cmd, f):
    return subprocess.run(cmd + [f], cwd=W, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=30).returncode == 0

def run(tool, f):
    shutil.rmtree(f"{W}/t", ignore_errors=True)
    os.makedirs(f"{W}/t")
    cmd = [FIO, "--output-format=json", f] if tool == "fio" else [SB, "io", "--output-format=json", f]
    p = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S"] + cmd, cwd=W, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        return None
    m = re.findall(r"TIME ([\d.]+) ([\d.]+)", p.stderr)
    txt = p.stdout
    try:
        j = json.loads(txt[txt.index("{"):])
    except Exception:
        return None
    ios = sum(job[d].get("total_ios", 0) for job in j.get("jobs", [])
              for d in ("read", "write", "trim", "mixed") if d in job)
    if not m or not ios:
        return None
    cpu = float(m[-1][0]) + float(m[-1][1])
    return cpu / ios * 1e9, j

def keys(o, pre=""):
    ks = set()
    if isinstance(o, dict):
        for k, v in o.items():
            if re.match(r"^[\d.]+$", k):  # percentile and histogram buckets: values, not keys
                continue
            ks.add(pre + k)
            ks |= keys(v, pre + k + ".")
    return ks

def work(j):
    """Bytes per I/O of each job's directions: what ran, whatever the speed (per job, as
    jobs of different sizes run different counts in the same time)."""
    out = []
    for job in j.get("jobs", []):
        w = {}
        for d in ("read", "write", "trim", "mixed"):
            ios = job.get(d, {}).get("total_ios", 0)
            if ios:
                w[d] = job[d].get("io_bytes", 0) / ios
        out.append(w)
    return out

def job_differs(a, b):
    return set(a) != set(b) or any(abs(a[d] - b[d]) > 0.25 * max(a[d], b[d]) for d in a)

def work_differs(jf, js):
    """A job with a direction one tool did and the other not, or a size per I/O a quarter
    apart (or a different count of jobs)."""
    f, s = work(jf), work(js)
    return len(f) != len(s) or any(job_differs(a, b) for a, b in zip(f, s))

def work_text(jf, js):
    """The jobs that differ (at most 4), each as fio's and storbench's bytes per I/O."""
    f, s = work(jf), work(js)
    if len(f) != len(s):
        return f"fio {len(f)} jobs, sb {len(s)}"
    one = lambda w: " ".join(f"{d[0]}:{v:.0f}" for d, v in w.items()) or "-"
    return " | ".join([f"job {i + 1} ({jf['jobs'][i].get('jobname', '?')}): fio {one(a)}, sb {one(b)}"
                       for i, (a, b) in enumerate(zip(f, s)) if job_differs(a, b)][:4])

files = []
for d in sys.argv[1:]:
    files += sorted(glob.glob(os.path.join(os.path.abspath(d), "*")))

def first_error(text):
    lines = [l for l in text.splitlines() if l.strip()]
    errs = [l for l in lines if not l.startswith("storbench: warning:") and
            ("error" in l.lower() or l.startswith("storbench:") or l.startswith("fio:"))]
    return (errs or lines or [""])[0][:160]

def exit_codes():
    n, ok = 0, {"fio": 0, "sb": 0}
    for src in files:
        if src.endswith(".md"):
            continue
        name = os.path.basename(src)
        if not accepted([SB, "io", "--parse-only"], src):
            continue
        tf = f"{W}/{name}.tamed"
        if not tame(src, tf):
            print(f"{name:48s} (no job section: a [global] for others to include; skipped)")
            continue
        n += 1
        rc, why = {}, {}
        for tool in ("fio", "sb"):
            shutil.rmtree(f"{W}/t", ignore_errors=True)
            os.makedirs(f"{W}/t")
            cmd = [FIO, tf] if tool == "fio" else [SB, "io", tf]
            try:
                p = subprocess.run(cmd, cwd=W, capture_output=True, text=True, errors="replace",
                                   timeout=600)
                rc[tool], why[tool] = p.returncode, first_error(p.stderr)
            except subprocess.TimeoutExpired:
                rc[tool], why[tool] = "timeout", "timed out after 600 s"
            ok[tool] += rc[tool] == 0
        note = "  ".join(f"{t}: {why[t]}" for t in ("fio", "sb") if rc[t] != 0)
        print(f"{name:48s} fio={rc['fio']}  sb={rc['sb']}  {note}")
    print(f"\n{n} files (storbench's --parse-only accepts them), tamed and run once: "
          f"fio ran {ok['fio']} to completion (exit 0), storbench {ok['sb']}")

if os.environ["EXITCODES"] == "1":
    exit_codes()
    sys.exit(0)
ratios, worse, missing, differ = [], [], set(), []
print(f"{'file':45s} {'fio ns/IO':>10s} {'sb ns/IO':>10s} {'sb/fio':>7s}  spread")
for src in files:
    if src.endswith(".md"):
        continue
    name = os.path.basename(src)
    if not (accepted([FIO, "--parse-only"], src) and accepted([SB, "io", "--parse-only"], src)):
        continue
    tf = f"{W}/{name}.tamed"
    if not tame(src, tf):
        print(f"{name:45s} (no job section: a [global] for others to include; skipped)")
        continue
    if not (accepted([FIO, "--parse-only"], tf) and accepted([SB, "io", "--parse-only"], tf)):
        print(f"{name:45s} (the tamed copy is refused by one tool: skipped)")
        continue
    r, fa, sa, jf, js = [], [], [], None, None
    parts = split_jobs(tf) if os.environ["PERJOB"] == "1" else [tf]
    for i in range(ROUNDS):
        order = ("fio", "sb") if i % 2 == 0 else ("sb", "fio")
        got = [{t: run(t, part) for t in order} for part in parts]
        if not all(g["fio"] and g["sb"] for g in got):
            break
        gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
        fa.append(gm([g["fio"][0] for g in got])); sa.append(gm([g["sb"][0] for g in got]))
        r.append(gm([g["sb"][0] / g["fio"][0] for g in got]))
        jf = {"jobs": [j for g in got for j in g["fio"][1]["jobs"]]}
        js = {"jobs": [j for g in got for j in g["sb"][1]["jobs"]]}
    if len(parts) > 1:
        name = f"{name} ({len(parts)} jobs apart)"
    if len(r) < ROUNDS:
        print(f"{name:45s} (a run failed: skipped)")
        continue
    g = math.exp(sum(map(math.log, r)) / len(r))
    ratios.append(g)
    if g > 1:
        worse.append(name)
    miss = set().union(*(keys(a) - keys(b) for a, b in zip(jf["jobs"], js["jobs"])))
    missing |= miss
    differs = work_differs(jf, js)
    if differs:
        differ.append(name)
    print(f"{name:45s} {sorted(fa)[len(fa)//2]:10.0f} {sorted(sa)[len(sa)//2]:10.0f} {g:7.3f}  "
          f"[{min(r):.3f}..{max(r):.3f}]{'  missing ' + ' '.join(sorted(miss)[:3]) + (' ...' if len(miss) > 3 else '') if miss else ''}"
          f"{'  work differs: bytes/IO ' + work_text(jf, js) if differs else ''}")
if ratios:
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"\n{len(ratios)} files: storbench/fio CPU per I/O geometric mean {g:.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f}); storbench spent more on {len(worse)}: "
          f"{' '.join(worse) if worse else '-'}")
print(f"fio's job keys storbench lacks ({len(missing)}): {' '.join(sorted(missing)) if missing else 'none'}")
print(f"files whose I/O differs in kind (a direction, or bytes per I/O a quarter apart) ({len(differ)}): "
      f"{' '.join(differ) if differ else 'none'}")
PYEOF
