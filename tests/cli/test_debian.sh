#!/bin/bash
# debian/: `dpkg-buildpackage -us -uc -b` on a copy of the tracked source builds two
# packages; storbench holds the binary (which runs: --version, list), the man page
# and the bash completion, storbench-mpi the Open MPI build and depends on the
# first. The packages are unpacked into a scratch root (dpkg-deb -x), never
# installed on this machine. Skips visibly without dpkg-buildpackage or dh
# (scripts/bootstrap installs dpkg-dev and debhelper) or Open MPI's mpicc.
# One build of both binaries at -j2 and -O0 (DEB_BUILD_OPTIONS=noopt), at nice 10.
. "$(dirname "$0")/lib.sh"

for t in dpkg-buildpackage dh mpicc; do
    if ! command -v "$t" >/dev/null; then
        echo "ok # SKIP debian package: $t missing (scripts/bootstrap installs dpkg-dev, debhelper, libopenmpi-dev)"
        finish
    fi
done
if ! (cd "$SRC" && dpkg-checkbuilddeps) >"$T/deps" 2>&1; then
    echo "ok # SKIP debian package: build dependencies missing: $(tail -1 "$T/deps")"
    finish
fi

# A copy of what git tracks (plus files not yet added, not ignored): the build runs
# `make clean`, which must not touch the developer's tree.
mkdir -p "$T/pkg/storbench"
(cd "$SRC" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$T/pkg/storbench") ||
    { not_ok "copy the source"; finish; }
# noopt (Debian's switch for a build at -O0): what is checked is the packaging, which
# optimisation does not change, and the compiler's optimising passes were most of the time
if (cd "$T/pkg/storbench" && DEB_BUILD_OPTIONS="noopt${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" \
    nice -n 10 dpkg-buildpackage -us -uc -b -j2) >"$T/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b"
else
    not_ok "dpkg-buildpackage -us -uc -b ($(tail -5 "$T/build.log" | tr '\n' ' '))"
    finish
fi
deb=$(ls "$T"/pkg/storbench_*.deb 2>/dev/null | head -1)
mpi=$(ls "$T"/pkg/storbench-mpi_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && [ -n "$mpi" ] && ok "two packages: storbench, storbench-mpi" ||
    { not_ok "two packages ($(ls "$T/pkg"))"; finish; }

dpkg-deb -c "$deb" >"$T/list"
for f in ./usr/bin/storbench ./usr/share/man/man1/storbench.1.gz ./usr/share/bash-completion/completions/storbench; do
    grep -q " $f$" "$T/list" && ok "storbench package holds $f" || not_ok "storbench package holds $f"
done
! grep -q 'storbench-mpi' "$T/list" && ok "storbench-mpi not in the storbench package" || not_ok "storbench-mpi not in the storbench package"
dpkg-deb -c "$mpi" >"$T/list-mpi"
grep -q ' ./usr/bin/storbench-mpi$' "$T/list-mpi" && ok "storbench-mpi package holds the binary" ||
    not_ok "storbench-mpi package holds the binary"
dpkg-deb -f "$mpi" Depends | grep -q 'storbench (= ' && ok "storbench-mpi depends on storbench" ||
    not_ok "storbench-mpi depends on storbench ($(dpkg-deb -f "$mpi" Depends))"
dpkg-deb -f "$deb" Depends | grep -q 'libjansson' && ok "shlibs dependencies computed" ||
    not_ok "shlibs dependencies computed ($(dpkg-deb -f "$deb" Depends))"

# Unpacked, the binary runs and is the version the Makefile names.
R=$T/root
dpkg-deb -x "$deb" "$R" && dpkg-deb -x "$mpi" "$R"
want=$(sed -n 's/^VERSION *:= *//p' "$SRC/Makefile")
[ "$("$R/usr/bin/storbench" --version)" = "storbench $want" ] && ok "unpacked binary: --version" ||
    not_ok "unpacked binary: --version ($("$R/usr/bin/storbench" --version 2>&1))"
"$R/usr/bin/storbench" list --format json | jq -e '.tests | length > 5' >/dev/null && ok "unpacked binary: list" ||
    not_ok "unpacked binary: list"
"$R/usr/bin/storbench-mpi" --version >/dev/null 2>&1 && ok "unpacked storbench-mpi: --version" ||
    not_ok "unpacked storbench-mpi: --version"
zcat "$R/usr/share/man/man1/storbench.1.gz" | cmp -s - "$SRC/docs/storbench.1" && ok "man page is docs/storbench.1" ||
    not_ok "man page is docs/storbench.1"
bash -c ". '$R/usr/share/bash-completion/completions/storbench'; complete -p storbench" >/dev/null 2>&1 &&
    ok "completion loads" || not_ok "completion loads"
finish
