#!/usr/bin/env bash
# test_cli_recipe.sh -- recipes (--save-recipe, --recipe) and the sidecars of raw files: the
# round trip is byte-identical for every command that writes files, the command line overrides
# a recipe, hostile recipes are refused with the file and line and write nothing, and a raw
# file's sidecar describes it (read back with python's json module, checked against the data).
#
# Usage: bash tests/test_cli_recipe.sh path/to/cnoise
# Run by ctest as test_cli_recipe. Prints one line per failure and ends with
# "test_cli_recipe: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils; python3 (json) and numpy for the sidecar checks (skipped without them).

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1
PY=$(numpy_python) || PY=
if [ -z "$PY" ]; then skip "python3 with numpy not found: sidecar checks skipped"; fi

# ---------------------------------------------------------------------------------------------
# Round trips: OPTIONS with --save-recipe, then --recipe alone, give the same bytes.
roundtrip() { # NAME COMMAND EXTENSION OPTIONS...
    local name=$1 cmd=$2 ext=$3; shift 3
    run "$cmd" "$@" -o "direct.$ext" --save-recipe "$name.yaml" --quiet
    check "$name: the direct run with --save-recipe: $err" [ "$rc" -eq 0 ]
    check "$name: the recipe exists" [ -s "$name.yaml" ]
    run "$cmd" --recipe "$name.yaml" -o "again.$ext" --quiet
    check "$name: the run from the recipe: $err" [ "$rc" -eq 0 ]
    check "$name: byte-identical from the recipe" cmp -s "direct.$ext" "again.$ext"
    # and saving the recipe's run again gives the same recipe
    run "$cmd" --recipe "$name.yaml" -o "again.$ext" --save-recipe "$name.2.yaml" --quiet
    check "$name: a recipe saved from a recipe is the same recipe" cmp -s "$name.yaml" "$name.2.yaml"
}
roundtrip render-rgb render png --fractal fbm --octaves 6 --seed -1 --size 128x64 --tile \
    --layer 'seed=2; frequency=4; weight=0.5' --layer 'noise=value; weight=0.25' \
    --ramp '0:#102030,0.5:#7a7f3a,1:#ffffff' --format rgb --shade --light-azimuth 200 --relief 0.3
roundtrip render-r16 render r16 --noise simplex --frequency 0x1p-5 --dims 3 --z 7.25 --size 40x30 \
    --origin -5,9 --normalize -0.5,0.5 --rotate 0,0,1,30
roundtrip render-f32 render f32 --fractal ridged --octaves 4 --ridge-offset 0.9 --precision float \
    --axis-frequency 1,2 --offset 0.5,0.25 --amplitude 0.5 --bias 0.1 --size 33x17
roundtrip map map png --seed 42 --size 64x32 --scale 32 --sea-level 0.1 --ramp land --tile --origin 3,4
roundtrip volume volume npy --size 6x5x4 --noise value --dims 4 --w 3 --origin 1,2,3
roundtrip animate animate gif --size 16x12 --frames 4 --time-step 16 --loop --delay 10 --fractal fbm

# The recipe as written: the values as given, flags as true, layers as a list.
check "the recipe names its command" grep -qx 'command: render' render-rgb.yaml
check "the recipe's format line" grep -qx 'cnoise-recipe: 1' render-rgb.yaml
check "a negative seed as given" grep -qx 'seed: -1' render-rgb.yaml
check "a flag as true" grep -qx 'tile: true' render-rgb.yaml
check "layers as a list" grep -qx -- '- seed=2; frequency=4; weight=0.5' render-rgb.yaml
check "no output, threads or quiet in a recipe" bash -c '! grep -Eq "^(output|threads|quiet|save-recipe|recipe):" render-rgb.yaml map.yaml volume.yaml animate.yaml'

# A hand-written recipe: comments, quoted values, YAML's words kept as text, any key order.
cat >hand.yaml <<'EOF'
# a terrain heightmap
size: "48x32"        # quoted: still the option's text
octaves: '5'
fractal: fbm
seed: 0x2A
layer:
  - "frequency=3; weight=0.5"
EOF
run render --recipe hand.yaml -o hand.png --quiet
check "a hand-written recipe" [ "$rc" -eq 0 ]
run render --size 48x32 --octaves 5 --fractal fbm --seed 42 --layer 'frequency=3; weight=0.5' -o hand_direct.png --quiet
check "a hand-written recipe equals the options" cmp -s hand.png hand_direct.png

# ---------------------------------------------------------------------------------------------
# The command line overrides the recipe, wherever --recipe stands; its layers replace the recipe's.
run render --octaves 3 --recipe hand.yaml -o over.png --quiet
run render --size 48x32 --octaves 3 --fractal fbm --seed 42 --layer 'frequency=3; weight=0.5' -o over_direct.png --quiet
check "options before --recipe override it" cmp -s over.png over_direct.png
run render --recipe hand.yaml --layer 'noise=value' -o layers.png --quiet
run render --size 48x32 --octaves 5 --fractal fbm --seed 42 --layer 'noise=value' -o layers_direct.png --quiet
check "the command line's layers replace the recipe's" cmp -s layers.png layers_direct.png
run render --recipe hand.yaml --recipe render-f32.yaml -o last.f32 --quiet
check "the last --recipe is read" cmp -s last.f32 direct.f32

# ---------------------------------------------------------------------------------------------
# Hostile recipes: exit 2, "FILE:LINE" in the message, nothing written, an existing file kept.
printf 'keep me\n' >keep.png
hostile() { # NAME LINE-TEXT MESSAGE-TEXT CONTENT (printf %b)
    local name=$1 where=$2 what=$3 content=$4
    printf '%b' "$content" >h.yaml
    run render --recipe h.yaml -o keep.png --save-recipe saved.yaml
    expect_err "hostile recipe: $name" 2 "$where" "$what"
    check "hostile recipe: $name: keep.png untouched" grep -qx 'keep me' keep.png
    check "hostile recipe: $name: no recipe saved" [ ! -e saved.yaml ]
}
hostile "truncated" "h.yaml:2" "YAML syntax error" 'octaves: 6\nramp: "0:#000000,1:#ff'
hostile "unknown key" "h.yaml:2" "'frobnicate' is not an option" 'octaves: 6\nfrobnicate: 1\n'
hostile "output key" "h.yaml:1" "'output' is not allowed in a recipe" 'output: /tmp/x.png\n'
hostile "threads key" "h.yaml:1" "'threads' is not allowed" 'threads: 2\n'
hostile "wrong type: list" "h.yaml:1" "octaves takes one value, not a list" 'octaves: [6, 7]\n'
hostile "wrong type: mapping" "h.yaml:1" "the value is a mapping" 'seed: {a: 1}\n'
hostile "wrong type: word" "h.yaml:1" "--octaves: 'six' is not a whole number" 'octaves: six\n'
hostile "flag not true/false" "h.yaml:1" "tile: 'yes' is not true or false" 'tile: yes\n'
hostile "huge number" "h.yaml:1" "--seed: '184467440737095516160' is out of range" 'seed: 184467440737095516160\n'
hostile "huge real" "h.yaml:2" "--frequency: '1e999' is not a finite number" 'octaves: 2\nfrequency: 1e999\n'
hostile "deep nesting" "h.yaml:1" "holds plain values, not a list" "layer: $(printf '[%.0s' $(seq 5000))\n"
hostile "nested list" "h.yaml:3" "holds plain values, not a list" 'layer:\n  - seed=1\n  - [seed=2]\n'
hostile "twice" "h.yaml:3" "'octaves' is given twice (first on line 1)" 'octaves: 2\nseed: 1\noctaves: 3\n'
hostile "alias" "h.yaml:1" "anchors and tags are not allowed" 'seed: &s 1\noctaves: *s\n'
hostile "tag" "h.yaml:1" "anchors and tags are not allowed" 'octaves: !!int 6\n'
hostile "two documents" "h.yaml:2" "one YAML document" 'octaves: 2\n---\noctaves: 3\n'
hostile "a list at the top" "h.yaml:1" "not a list" '- octaves\n- 2\n'
hostile "a bare word" "h.yaml:1" "not a value" 'render\n'
hostile "NUL in a value" "h.yaml:1" "NUL character" 'ramp: "a\\0b"\n'
hostile "another command" "h.yaml:1" "the recipe is for cnoise map, not cnoise render" 'command: map\noctaves: 2\n'
hostile "a later format" "h.yaml:1" "not a recipe format this cnoise reads" 'cnoise-recipe: 2\n'
hostile "map's option in render" "h.yaml:1" "'sea-level' is not an option" 'sea-level: 0.2\n'
hostile "empty" "h.yaml" "the recipe is empty" ''
hostile "not UTF-8" "h.yaml" "UTF-8" 'seed: \xff\xfe\n'
hostile "a value no option takes" "h.yaml:1" "--noise: 'worley'" 'noise: worley\n'
run render --recipe /dev/null -o keep.png
expect_err "a device is not a recipe" 2 "not a regular file"
run render --recipe . -o keep.png
expect_err "a directory is not a recipe" 2 "not a regular file"
run render --recipe missing.yaml -o keep.png
expect_err "a missing recipe" 2 "missing.yaml: cannot open"
head -c 1048577 /dev/zero | tr '\0' '#' >big.yaml
run render --recipe big.yaml -o keep.png
expect_err "a recipe over 1 MiB" 2 "a recipe is at most 1048576 bytes"
run render --recipe '' -o keep.png
expect_err "an empty --recipe" 2 "--recipe: the file name is empty"
run render --save-recipe out.png -o out.png
expect_err "--save-recipe over the output" 2 "--save-recipe and --output name the same file"
check "keep.png untouched after all" grep -qx 'keep me' keep.png
check "no temporary files" no_temp_files

# A recipe that cannot be written: the render is done, the failure is reported.
mkdir adir
run render --size 8x8 -o fine.png --save-recipe adir
expect_err "--save-recipe onto a directory" 1 "--save-recipe" "is a directory"

# ---------------------------------------------------------------------------------------------
# Sidecars: every raw output has one; images with headers have none.
run render --fractal fbm --octaves 4 --size 37x23 --origin 5,6 --seed 0xab -o h.r16 --quiet
check "r16 render" [ "$rc" -eq 0 ] && check "r16 sidecar" [ -s h.r16.json ]
run render --fractal fbm --octaves 4 --size 37x23 --origin 5,6 --seed 0xab -o h.f32 --quiet
check "f32 sidecar" [ -s h.f32.json ]
run render --size 37x23 --normalize minmax -o mm.r16 --quiet
run volume --size 7x6x5 -o v.f32 --quiet
check "volume f32 sidecar" [ -s v.f32.json ]
run render --size 8x8 -o n.npy --quiet
run render --size 8x8 -o p.png --quiet
check "no sidecar for npy or png" [ ! -e n.npy.json ] && check "no sidecar for png" [ ! -e p.png.json ]
pycheck "the sidecars describe their files" '
def load(p):
    with open(p) as f:
        return json.load(f)
r16, f32, mm, vol = load("h.r16.json"), load("h.f32.json"), load("mm.r16.json"), load("v.f32.json")
for s, fmt, st in ((r16, "r16", "uint16"), (f32, "f32", "float32"), (vol, "f32", "float32")):
    assert s["file_format"] == fmt and s["sample_type"] == st and s["byte_order"] == "little-endian", s
    assert s["header_bytes"] == 0
assert (r16["width"], r16["height"]) == (37, 23) and "depth" not in r16
assert (vol["width"], vol["height"], vol["depth"]) == (7, 6, 5)
assert r16["value_range"] == [-1.0, 1.0] and f32["value_range"] == [-1.0, 1.0]
opts = r16["configuration"]["options"]
assert r16["configuration"]["command"] == "render"
assert opts == {"fractal": "fbm", "octaves": "4", "size": "37x23", "origin": "5,6", "seed": "0xab"}, opts
# the data: sizes, and min/max as the files hold them
a = np.fromfile("h.f32", "<f4")
assert a.size == 37 * 23 and f32["min"] == float(a.min()) and f32["max"] == float(a.max())
u = np.fromfile("h.r16", "<u2")
lo, hi = r16["value_range"]
dec = lo + (hi - lo) * u.astype(np.float64) / 65535
assert abs(dec.min() - r16["min"]) <= (hi - lo) / 65535 and abs(dec.max() - r16["max"]) <= (hi - lo) / 65535
v = np.fromfile("v.f32", "<f4")
assert v.size == 7 * 6 * 5 and vol["min"] == float(v.min()) and vol["max"] == float(v.max())
# minmax: the range is the image own, and the samples span 0..65535
m = np.fromfile("mm.r16", "<u2")
assert mm["value_range"] == [mm["min"], mm["max"]] and m.min() == 0 and m.max() == 65535
'
# A sidecar that cannot be written: neither file appears (they are committed together).
mkdir blocked.r16.json
run render --size 8x8 -o blocked.r16
expect_err "a sidecar path that is a directory" 1 "blocked.r16.json" "is a directory"
check "no raw file without its sidecar" [ ! -e blocked.r16 ]
check "no temporary files after the failed sidecar" no_temp_files

t_end
