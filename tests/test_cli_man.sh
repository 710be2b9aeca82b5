#!/usr/bin/env bash
# test_cli_man.sh -- the manual page (cnoise.1, which the build writes from man/cnoise.1.in with
# the library's noise and fractal names) stays in step with the tool: every command that "cnoise --help"
# lists has a section, every long option any --help text mentions appears in the page, every
# option a command's --help lists appears in that command's section (or in NOISE OPTIONS);
# groff and man render the page without warnings (skipped with a note when not installed);
# "cmake --install" installs it.
#
# Usage: bash tests/test_cli_man.sh path/to/cnoise path/to/build/cnoise.1 [build-dir]
# Run by ctest as test_cli_man; ends with "test_cli_man: N passed, M failed" and exits 1 if
# anything failed.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 2 'path/to/cnoise path/to/cnoise.1 [build-dir]' "$@"
CNOISE=$1
PAGE=$2
BUILD=${3:-}

# The page with roff's \- turned into -, and font escapes removed, for searching.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$PAGE" >"$T/page"
# section NAME: the lines of ".SS cnoise NAME" (or ".SH NAME") up to the next .SS/.SH.
section() {
    awk -v want="$1" '
        /^\.S[SH] / { on = ($0 == ".SS cnoise " want || $0 == ".SH " want); next }
        on { print }' "$T/page"
}
# has OPT FILE: FILE contains the option OPT as a whole word (not a prefix of a longer one).
has() { grep -q -E -e "$1([^a-z0-9-]|\$)" "$2"; }
# options FILE: the long options an option list in a --help text defines (lines starting with
# spaces then "--name" or "-c, --name"), one per line.
options() {
    sed -n -E 's/^ {2,}(-[a-zA-Z], )?(--[a-z][a-z0-9-]*).*/\2/p' "$1" | sort -u
}

"$CNOISE" --help >"$T/main"
commands=$(awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' "$T/main")
check "cnoise --help lists commands" [ -n "$commands" ]
for opt in --help --version; do
    check "the page mentions $opt" grep -q -- "$opt" "$T/page"
done

section "NOISE OPTIONS" >"$T/noise"
check "the page has NOISE OPTIONS" [ -s "$T/noise" ]
for cmd in $commands; do
    section "$cmd" >"$T/sec"
    check "the page has a section for '$cmd'" [ -s "$T/sec" ]
    "$CNOISE" "$cmd" --help >"$T/help" 2>&1
    check "'cnoise $cmd --help' succeeds" [ -s "$T/help" ]
    # Every long option mentioned anywhere in the help text is in the page.
    for opt in $(grep -o -E -- '--[a-z][a-z0-9-]*' "$T/help" | sort -u); do
        check "$cmd: '$opt' (mentioned in --help) is in the page" has "$opt" "$T/page"
    done
    # Every option the command defines is in its own section or in NOISE OPTIONS.
    for opt in $(options "$T/help"); do
        [ "$opt" = --help ] && continue
        check "$cmd: '$opt' is in the page's '$cmd' section or NOISE OPTIONS" \
            eval 'has "$opt" "$T/sec" || has "$opt" "$T/noise"'
    done
done
# The other direction: every option the page gives a command's section is one it accepts.
for cmd in $commands; do
    section "$cmd" >"$T/sec"
    "$CNOISE" "$cmd" --help >"$T/help" 2>&1
    for opt in $(grep -o -E -- '^\.B[IR]? +--[a-z][a-z0-9-]*' "$T/sec" | grep -o -E -- '--[a-z][a-z0-9-]*' | sort -u); do
        check "$cmd: the page's '$opt' is in its --help" has "$opt" "$T/help"
    done
done

# The noise and fractal names every --help text and the page list are the library's own
# (cn_noise_type_name, cn_fractal_name: "cnoise info" prints them), no more and no fewer.
# names TEXT: the words of a list like "perlin (default), simplex or value; ...".
names() { sed -e 's/\\-/-/g' -e 's/([^)]*)//g' -e 's/;.*//' -e 's/,/ /g' -e 's/ or / /g' <<<"$1" | tr -s ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' '; }
"$CNOISE" info >"$T/info"
lib_noise=$(names "$(sed -n 's/^noise: //p' "$T/info")")
lib_fractal=$(names "$(sed -n 's/^fractals: //p' "$T/info")")
check "cnoise info lists the noise types ($lib_noise) and fractals ($lib_fractal)" [ -n "$lib_noise" -a -n "$lib_fractal" ]
for cmd in $commands; do
    "$CNOISE" "$cmd" --help >"$T/help" 2>&1
    line=$(sed -n 's/^ *--noise NAME *//p' "$T/help")
    [ -n "$line" ] && check "$cmd --help: --noise lists the library's names ($(names "$line"))" [ "$(names "$line")" = "$lib_noise" ]
    line=$(sed -n 's/^ *--fractal NAME *//p' "$T/help")
    [ -n "$line" ] && check "$cmd --help: --fractal lists the library's names ($(names "$line"))" [ "$(names "$line")" = "$lib_fractal" ]
done
# page_entries OPTION NAMES: every entry ".BI \-\-OPTION " NAME"" of the page lists NAMES.
page_entries() {
    local n=0 line
    while IFS= read -r line; do
        n=$((n + 1))
        check "the page's --$1 entry $n lists the library's names ($(names "$line"))" [ "$(names "$line")" = "$2" ]
    done < <(sed -n "/^\\.BI \\\\-\\\\-$1 \" NAME\"\$/{n;p}" "$PAGE")
    check "the page has --$1 entries" [ "$n" -gt 0 ]
}
page_entries noise "$lib_noise"
page_entries fractal "$lib_fractal"

# Rendering without warnings.
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$PAGE" 2>"$T/groff"
    check "groff -ww renders the page without warnings ($(head -c 300 "$T/groff"))" [ ! -s "$T/groff" ]
else
    note "groff not installed: rendering check skipped"
fi
if command -v man >/dev/null 2>&1 && MANWIDTH=80 man -l "$PAGE" >/dev/null 2>&1; then
    MANWIDTH=80 MANROFFSEQ='' man --warnings -l "$PAGE" >"$T/man" 2>"$T/manerr"
    check "man -l renders the page without warnings ($(head -c 300 "$T/manerr"))" [ ! -s "$T/manerr" ]
    check "man -l output names every command" eval 'for c in $commands; do grep -q "cnoise $c" "$T/man" || exit 1; done'
else
    note "man not installed or not working: man -l check skipped"
fi

# Installed with the tool.
if [ -n "$BUILD" ] && command -v cmake >/dev/null 2>&1; then
    if cmake --install "$BUILD" --prefix "$T/inst" >/dev/null 2>&1; then
        found=$(find "$T/inst" -path '*/man1/cnoise.1' -print -quit)
        check "cmake --install puts cnoise.1 under share/man/man1 ($found)" eval '[ -n "$found" ] && cmp -s "$found" "$PAGE"'
    else
        fail "cmake --install into a temporary prefix failed"
    fi
fi

t_end
