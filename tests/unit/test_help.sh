#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_help.sh - the version and the help agree with the code.
#  - `tinyaot --version` prints compiler/version.h's TINYAOT_VERSION.
#  - `tinyaot --help`, `tinyaot help` and, for every command, `tinyaot help
#    CMD` and `tinyaot CMD --help` print to stdout and exit 0.
#  - Every option the parser in compiler/main.c compares against (each
#    strcmp(..., "-...") in a command's function, the compile options in
#    parse_compile_option) is described in that command's help, and every
#    option the help describes is one the parser accepts.
#  - doc/tinyaot.1 is exactly `tinyaot help --man` (regenerate it so);
#    README.md mentions every option of compile and runtime.
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
tmp=$(mktemp -d /tmp/tinyaot-help-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

want=$(sed -n 's/^#define TINYAOT_VERSION "\(.*\)"/\1/p' compiler/version.h)
got=$("$TINYAOT" --version 2> "$tmp/err")
if [ $? -eq 0 ] && [ "$got" = "tinyaot $want" ] && [ -n "$want" ]; then
  ok "tinyaot --version prints 'tinyaot $want', the version in compiler/version.h"
else
  notok "tinyaot --version prints 'tinyaot $want': got '$got'"
fi

helps() { # $1: description, then the command line
  what=$1
  shift
  "$TINYAOT" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -eq 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then
    ok "'tinyaot $*' prints $what to stdout and exits 0"
  else
    notok "'tinyaot $*' prints $what to stdout and exits 0: exit $rc, stderr '$(head -c 200 "$tmp/err")'"
  fi
}
helps "the commands" --help
helps "the commands" help
commands="inspect plan compile run runtime report"
for c in $commands; do
  helps "the help of $c" help "$c"
  cp "$tmp/out" "$tmp/help_$c"
  helps "the help of $c" "$c" --help
  if cmp -s "$tmp/out" "$tmp/help_$c"; then
    ok "'tinyaot $c --help' is 'tinyaot help $c'"
  else
    notok "'tinyaot $c --help' is 'tinyaot help $c'"
  fi
done
"$TINYAOT" help nosuch > /dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then ok "'tinyaot help nosuch' is a usage error (exit 2)"
else notok "'tinyaot help nosuch' is a usage error (exit 2): exit $rc"; fi

# The options each function of main.c compares against.
opts_of() { # $1: a function name in main.c
  awk -v fn="$1" '
    $0 ~ "^static [a-zA-Z_ ]*[ *]" fn "\\(" { on = 1 }
    on && /^}/ { on = 0 }
    on { while (match($0, /strcmp\([a-z\[\]]+, "-[^"]*"\)/)) {
           s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"\)$/, "", s)
           print s; $0 = substr($0, RSTART + RLENGTH) } }' compiler/main.c
}
opts_of parse_compile_option > "$tmp/build_opts"
# -dI, -dL and -dP are parsed letter by letter, not by strcmp.
printf '%s\n' -dI -dL -dP >> "$tmp/build_opts"
if [ "$(wc -l < "$tmp/build_opts")" -lt 12 ]; then
  notok "the test finds the compile options in main.c (found $(wc -l < "$tmp/build_opts"))"
fi
for c in $commands; do
  { opts_of "cmd_$c"; opts_of is_help
    case $c in plan|compile|run|report) cat "$tmp/build_opts" ;; esac; } | sort -u > "$tmp/parsed_$c"
  sed -n 's/^  \(-[-a-zA-Z0-9]*\).*/\1/p' "$tmp/help_$c" | sort -u > "$tmp/helped_$c"
  missing=$(comm -23 "$tmp/parsed_$c" "$tmp/helped_$c" | tr '\n' ' ')
  extra=$(comm -13 "$tmp/parsed_$c" "$tmp/helped_$c" | tr '\n' ' ')
  n=$(wc -l < "$tmp/parsed_$c")
  if [ -z "$missing" ] && [ "$n" -gt 1 ]; then
    ok "every one of the $n options $c accepts is described in 'tinyaot help $c'"
  else
    notok "every option $c accepts is described in 'tinyaot help $c': missing $missing"
  fi
  if [ -z "$extra" ]; then
    ok "every option 'tinyaot help $c' describes is one $c accepts"
  else
    notok "every option 'tinyaot help $c' describes is one $c accepts: not parsed: $extra"
  fi
done

"$TINYAOT" help --man > "$tmp/man"
if cmp -s "$tmp/man" doc/tinyaot.1; then
  ok "doc/tinyaot.1 is the man page 'tinyaot help --man' prints"
else
  notok "doc/tinyaot.1 is the man page 'tinyaot help --man' prints (regenerate: build/tinyaot help --man > doc/tinyaot.1)"
fi
if command -v man > /dev/null 2>&1 && command -v groff > /dev/null 2>&1; then
  if man -l "$tmp/man" 2>&1 < /dev/null | grep -q -- "--weights-section\|--runtime"; then
    ok "man renders doc/tinyaot.1"
  else
    notok "man renders doc/tinyaot.1"
  fi
fi

missing=""
for o in $(cat "$tmp/helped_compile" "$tmp/helped_runtime" | sort -u); do
  case $o in -h|--help|-dI|-dL|-dP|-o) continue ;; esac
  grep -q -- "$o" README.md || missing="$missing $o"
done
if [ -z "$missing" ]; then
  ok "README.md mentions every option of compile and runtime"
else
  notok "README.md mentions every option of compile and runtime: missing$missing"
fi

rm -rf "$tmp"
exit $fail
