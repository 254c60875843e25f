#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/models/test_packages.sh - `compile --package KIND` for each build
# ecosystem, built as far as this machine allows, on examples/tiny_cnn
# (no shared files needed).  Each build runs the model on
# examples/tiny_cnn/input.bin and must give expected_output.bin (TFLite's
# bytes):
#   cmake       find_package(tc CONFIG PATHS ...) in a real CMake build
#               (plain pass, when cmake is installed);
#   zephyr      zephyr/module.yml, zephyr/Kconfig and zephyr/CMakeLists.txt
#               by structure, then a real CMake build of the module's
#               CMakeLists.txt with Zephyr's functions stubbed
#               (zephyr_library_named, _sources, zephyr_include_directories);
#   esp-idf     idf_component.yml, then a CMake build of the component's
#               CMakeLists.txt with idf_component_register() stubbed;
#   arduino     library.properties, then every .c under src/ compiled
#               with -Isrc only and a sketch (.ino, as C++) linked with a
#               stand-in for the Arduino core's main(), as the IDE does;
#   platformio  library.json, then srcDir compiled with -I includeDir;
# and the package files' ownership: listed in .tinyaot-manifest, removed
# when a recompile uses another kind, a user's file of the same name
# refused unless --force.
# The cmake, zephyr and esp-idf builds run in the plain pass only (the
# sanitizer pass compiles arduino and platformio with $TINYAOT_CFLAGS).
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
CC=${CC:-cc}
CXX=${CXX:-c++}
ex=$(pwd)/examples/tiny_cnn
tmp=$(mktemp -d /tmp/tinyaot-pkg-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
plain=false
[ "${TINYAOT_PASS:-plain}" = plain ] && plain=true
have_cmake=false
command -v cmake > /dev/null 2>&1 && have_cmake=true

for k in cmake zephyr esp-idf arduino platformio; do
  if "$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$tmp/$k" --prefix tc --package "$k" \
       > "$tmp/$k.log" 2>&1; then
    ok "compile --package $k writes a folder"
  else
    notok "compile --package $k writes a folder: $(head -n2 "$tmp/$k.log")"
  fi
done
"$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$tmp/bad" --package keil > "$tmp/bad.log" 2>&1
rc=$?
[ $rc -eq 2 ] && ok "--package keil is a usage error ($(head -n1 "$tmp/bad.log"))" ||
  notok "--package keil is a usage error: exit $rc"

# The program every build links: runs tiny_cnn on input.bin.
cat > "$tmp/main.c" <<'C'
/* Runs tiny_cnn once: argv[1] the input, argv[2] where the output goes. */
#include <stdio.h>

#include "tc.h"

int run_tc(const char *in_path, const char *out_path);

int run_tc(const char *in_path, const char *out_path) {
  static int8_t in[TC_INPUT0_SIZE], out[TC_OUTPUT0_SIZE];
  static unsigned char ws[TC_WORKSPACE_SIZE + 16];
  struct tc_inputs i;
  struct tc_outputs o;
  FILE *f = fopen(in_path, "rb");
  if (!f || fread(in, 1, sizeof in, f) != sizeof in)
    return 2;
  fclose(f);
  *(const void **)&i = in;
  *(void **)&o = out;
  if (tc_run(&i, &o, ws + (16 - (size_t)ws % 16) % 16) != 0)
    return 1;
  f = fopen(out_path, "wb");
  if (!f || fwrite(out, 1, sizeof out, f) != sizeof out || fclose(f))
    return 2;
  return 0;
}
C
printf '%s\n' '/* The program around run_tc(). */' \
  'int run_tc(const char *in_path, const char *out_path);' \
  'int main(int argc, char **argv) { return argc == 3 ? run_tc(argv[1], argv[2]) : 2; }' \
  > "$tmp/app_main.c"

check_run() { # $1: what, $2: program
  rm -f "$tmp/out.bin"
  if "$2" "$ex/input.bin" "$tmp/out.bin" > "$tmp/run.log" 2>&1 &&
     cmp -s "$tmp/out.bin" "$ex/expected_output.bin"; then
    ok "$1: the program gives TFLite's expected output"
  else
    notok "$1: the program gives TFLite's expected output: $(cmp "$ex/expected_output.bin" "$tmp/out.bin" 2>&1 | head -n1)"
  fi
}

cmake_build() { # $1: what, $2: the folder with CMakeLists.txt
  if (cmake -S "$2" -B "$2/build" > "$2/cmake.log" 2>&1 &&
      cmake --build "$2/build" >> "$2/cmake.log" 2>&1); then
    ok "$1 builds with CMake"
    check_run "$1" "$2/build/app"
  else
    notok "$1 builds with CMake: $(grep -m3 -i error "$2/cmake.log" | tr '\n' ' ')"
  fi
}

# cmake: find_package.
if $plain && $have_cmake; then
  mkdir -p "$tmp/use_cmake"
  cat > "$tmp/use_cmake/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.5)
project(use_tc C)
find_package(tc CONFIG REQUIRED PATHS $tmp/cmake NO_DEFAULT_PATH)
add_executable(app $tmp/main.c $tmp/app_main.c)
target_link_libraries(app PRIVATE tc m)
CM
  cmake_build "--package cmake through find_package(tc CONFIG)" "$tmp/use_cmake"
fi

# zephyr: structure, then the module's CMakeLists.txt with stubs.
z=$tmp/zephyr/zephyr
if grep -q '^name: tinyaot_tc$' "$z/module.yml" && grep -q '^  cmake: zephyr$' "$z/module.yml" &&
   grep -q '^  kconfig: zephyr/Kconfig$' "$z/module.yml" &&
   grep -q '^config TINYAOT_TC$' "$z/Kconfig" && grep -q '^	bool ' "$z/Kconfig" &&
   grep -q 'if(CONFIG_TINYAOT_TC)' "$z/CMakeLists.txt"; then
  ok "--package zephyr writes zephyr/module.yml (name, build.cmake, build.kconfig), Kconfig (config TINYAOT_TC) and CMakeLists.txt"
else
  notok "--package zephyr writes module.yml, Kconfig and CMakeLists.txt as a Zephyr module"
fi
if $plain && $have_cmake; then
  mkdir -p "$tmp/use_zephyr"
  cat > "$tmp/use_zephyr/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.5)
project(use_zephyr C)
# Stand-ins for Zephyr's CMake extensions, as zephyr/cmake/extensions.cmake
# defines them: a named library, its sources, include folders for all.
add_library(zephyr_interface INTERFACE)
function(zephyr_library_named name)
  add_library(\${name} STATIC)
  set(ZEPHYR_CURRENT_LIBRARY \${name} PARENT_SCOPE)
endfunction()
function(zephyr_library_sources)
  target_sources(\${ZEPHYR_CURRENT_LIBRARY} PRIVATE \${ARGN})
  target_link_libraries(\${ZEPHYR_CURRENT_LIBRARY} PUBLIC zephyr_interface)
endfunction()
function(zephyr_include_directories)
  target_include_directories(zephyr_interface INTERFACE \${ARGN})
endfunction()
set(CONFIG_TINYAOT_TC y)
add_subdirectory($z tinyaot_tc)
add_executable(app $tmp/main.c $tmp/app_main.c)
target_link_libraries(app PRIVATE tinyaot_tc zephyr_interface m)
CM
  cmake_build "--package zephyr (its CMakeLists.txt, Zephyr's functions stubbed)" "$tmp/use_zephyr"
fi

# esp-idf.
if grep -q '^license: "Apache-2.0"$' "$tmp/esp-idf/idf_component.yml" &&
   grep -q 'idf_component_register(SRCS' "$tmp/esp-idf/CMakeLists.txt"; then
  ok "--package esp-idf writes idf_component.yml and a CMakeLists.txt calling idf_component_register"
else
  notok "--package esp-idf writes idf_component.yml and a CMakeLists.txt calling idf_component_register"
fi
if $plain && $have_cmake; then
  mkdir -p "$tmp/use_idf"
  cat > "$tmp/use_idf/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.5)
project(use_idf C)
# A stand-in for ESP-IDF's idf_component_register: the component library
# from SRCS (relative to the component) and its public INCLUDE_DIRS.
function(idf_component_register)
  cmake_parse_arguments(C "" "" "SRCS;INCLUDE_DIRS" \${ARGN})
  add_library(idf_component STATIC \${C_SRCS})
  target_include_directories(idf_component PUBLIC \${C_INCLUDE_DIRS})
endfunction()
add_subdirectory($tmp/esp-idf component)
add_executable(app $tmp/main.c $tmp/app_main.c)
target_link_libraries(app PRIVATE idf_component m)
CM
  cmake_build "--package esp-idf (idf_component_register stubbed)" "$tmp/use_idf"
fi

# arduino: library.properties; every .c under src/ with -Isrc; a sketch as C++.
a=$tmp/arduino
if grep -q '^name=tinyaot_tc$' "$a/library.properties" && grep -q '^version=' "$a/library.properties" &&
   grep -q '^architectures=\*$' "$a/library.properties" && grep -q '^includes=tc.h$' "$a/library.properties" &&
   [ -f "$a/src/tc.h" ] && [ -f "$a/src/ta_kernels.h" ] && [ ! -e "$a/tc.c" ]; then
  ok "--package arduino writes library.properties and every source under src/"
else
  notok "--package arduino writes library.properties and every source under src/"
fi
mkdir -p "$tmp/ard_obj"
cat > "$tmp/sketch.ino" <<'INO'
// A sketch: the IDE compiles it as C++ with the library's src/ included.
#include <tc.h>
extern "C" int run_tc(const char *in_path, const char *out_path);
const char *sketch_in, *sketch_out;
int sketch_status = -1;
void setup() { sketch_status = run_tc(sketch_in, sketch_out); }
void loop() {}
INO
cat > "$tmp/core_main.cpp" <<'CPP'
// A stand-in for the Arduino core's main(): setup() once, then loop().
extern const char *sketch_in, *sketch_out;
extern int sketch_status;
void setup();
void loop();
int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  sketch_in = argv[1];
  sketch_out = argv[2];
  setup();
  loop();
  return sketch_status;
}
CPP
ard_ok=true
# shellcheck disable=SC2086
for src in $(cd "$a/src" && find . -name '*.c' | sort); do
  o=$tmp/ard_obj/$(echo "$src" | tr '/.' '__').o
  $CC -std=gnu11 -Os -w $TINYAOT_CFLAGS -I"$a/src" -c -o "$o" "$a/src/$src" >> "$tmp/ard.log" 2>&1 || ard_ok=false
done
# shellcheck disable=SC2086
if $ard_ok && $CC -std=gnu11 $TINYAOT_CFLAGS -I"$a/src" -c -o "$tmp/ard_obj/main.o" "$tmp/main.c" >> "$tmp/ard.log" 2>&1 &&
   $CXX -x c++ -std=gnu++11 $TINYAOT_CFLAGS -I"$a/src" -c -o "$tmp/ard_obj/sketch.o" "$tmp/sketch.ino" >> "$tmp/ard.log" 2>&1 &&
   $CXX $TINYAOT_CFLAGS -c -o "$tmp/ard_obj/core.o" "$tmp/core_main.cpp" >> "$tmp/ard.log" 2>&1 &&
   $CXX $TINYAOT_CFLAGS -o "$tmp/ard_app" "$tmp"/ard_obj/*.o -lm >> "$tmp/ard.log" 2>&1; then
  ok "--package arduino builds as the IDE builds a library: every .c under src/ with -Isrc, a C++ sketch"
  rm -f "$tmp/out.bin"
  "$tmp/ard_app" "$ex/input.bin" "$tmp/out.bin" > /dev/null 2>&1
  cmp -s "$tmp/out.bin" "$ex/expected_output.bin" &&
    ok "--package arduino: the sketch gives TFLite's expected output" ||
    notok "--package arduino: the sketch gives TFLite's expected output"
else
  notok "--package arduino builds as the IDE builds a library: $(grep -m3 -i error "$tmp/ard.log" | tr '\n' ' ')"
fi

# platformio: library.json's srcDir and includeDir.
p=$tmp/platformio
srcdir=$(sed -n 's/.*"srcDir": *"\([^"]*\)".*/\1/p' "$p/library.json")
incdir=$(sed -n 's/.*"includeDir": *"\([^"]*\)".*/\1/p' "$p/library.json")
if grep -q '"name": "tinyaot_tc"' "$p/library.json" && grep -q '"license": "Apache-2.0"' "$p/library.json" &&
   [ -n "$srcdir" ] && [ -d "$p/$srcdir" ] && [ -n "$incdir" ]; then
  ok "--package platformio writes library.json (name, license, build.srcDir $srcdir, includeDir $incdir)"
  # shellcheck disable=SC2086
  if $CC -std=c99 -O1 -Wall -Wextra -Werror -pedantic $TINYAOT_CFLAGS -I"$p/$incdir" -o "$tmp/pio_app" \
       "$tmp/main.c" "$tmp/app_main.c" $(cd "$p/$srcdir" && find . -name '*.c' | sort | sed "s#^\.#$p/$srcdir#") \
       -lm > "$tmp/pio.log" 2>&1; then
    ok "--package platformio builds from srcDir with -I includeDir"
    check_run "--package platformio" "$tmp/pio_app"
  else
    notok "--package platformio builds from srcDir with -I includeDir: $(grep -m3 -i error "$tmp/pio.log" | tr '\n' ' ')"
  fi
else
  notok "--package platformio writes library.json with build.srcDir and includeDir"
fi

# The package's files go through the folder's manifest like every
# generated file (compiler/emit/outdir.c): a recompile with another kind
# (or none) removes the previous kind's files, a user's file is kept, and
# a user's file named like a package file is refused unless --force.
r=$tmp/recompile
pkg() { "$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$r" --prefix tc "$@" > "$tmp/re.log" 2>&1; }
mkdir -p "$r" && echo "my notes" > "$r/notes.txt"
if pkg --package zephyr && grep -qx 'zephyr/module.yml' "$r/.tinyaot-manifest" &&
   grep -qx 'zephyr/Kconfig' "$r/.tinyaot-manifest" && grep -qx 'zephyr/CMakeLists.txt' "$r/.tinyaot-manifest"; then
  ok "--package zephyr lists zephyr/module.yml, Kconfig and CMakeLists.txt in .tinyaot-manifest"
else
  notok "--package zephyr lists its files in .tinyaot-manifest: $(head -n1 "$tmp/re.log")"
fi
if pkg --package arduino && [ ! -e "$r/zephyr" ] && [ ! -e "$r/tc.c" ] && [ ! -e "$r/CMakeLists.txt" ] &&
   [ -f "$r/library.properties" ] && [ -f "$r/src/tc.c" ] && [ ! -e "$r/src/.tinyaot-manifest" ] &&
   grep -qx 'library.properties' "$r/.tinyaot-manifest" && grep -qx 'src/tc.c' "$r/.tinyaot-manifest" &&
   [ "$(cat "$r/notes.txt")" = "my notes" ]; then
  ok "recompiling zephyr -> arduino removes zephyr/ and the top-level sources, lists library.properties and src/, keeps the user's notes.txt"
else
  notok "recompiling zephyr -> arduino replaces exactly the previous files: $(head -n1 "$tmp/re.log"); $(cd "$r" && find . | sort | tr '\n' ' ')"
fi
if pkg --package cmake && [ ! -e "$r/src" ] && [ ! -e "$r/library.properties" ] && [ -f "$r/tcConfig.cmake" ] &&
   pkg && [ ! -e "$r/tcConfig.cmake" ] && [ -f "$r/tc.c" ] && [ "$(cat "$r/notes.txt")" = "my notes" ]; then
  ok "arduino -> cmake -> no package: src/, library.properties, then tcConfig.cmake removed; notes.txt kept"
else
  notok "arduino -> cmake -> no package removes each previous kind's files: $(head -n1 "$tmp/re.log"); $(cd "$r" && find . | sort | tr '\n' ' ')"
fi
u=$tmp/userjson
mkdir -p "$u" && echo '{"name": "mine"}' > "$u/library.json"
"$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$u" --prefix tc --package platformio > "$tmp/u.log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'library.json.*--force' "$tmp/u.log" && [ "$(cat "$u/library.json")" = '{"name": "mine"}' ] &&
   [ ! -e "$u/src" ] && [ ! -e "$u/.tinyaot-manifest" ]; then
  ok "--package platformio refuses to overwrite the user's library.json, and writes nothing ($(head -n1 "$tmp/u.log"))"
else
  notok "--package platformio refuses the user's library.json: exit $rc, $(head -n1 "$tmp/u.log")"
fi
if "$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$u" --prefix tc --package platformio --force > "$tmp/u.log" 2>&1 &&
   grep -q '"name": "tinyaot_tc"' "$u/library.json" && grep -qx 'library.json' "$u/.tinyaot-manifest"; then
  ok "--package platformio --force replaces the user's library.json and lists it"
else
  notok "--package platformio --force replaces library.json: $(head -n1 "$tmp/u.log")"
fi
e=$tmp/useridf
mkdir -p "$e" && echo "user" > "$e/idf_component.yml"
"$TINYAOT" compile "$ex/tiny_cnn.tflite" -o "$e" --prefix tc --package esp-idf > "$tmp/e.log" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$e/idf_component.yml")" = user ] && [ ! -e "$e/tc.c" ] &&
  ok "--package esp-idf refuses the user's idf_component.yml and writes nothing" ||
  notok "--package esp-idf refuses the user's idf_component.yml: exit $rc, $(head -n1 "$tmp/e.log")"

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
