;; The compensated strategy's position factor from the spikes' positions (positionFactorRows, through
;; $rowScaledExpInPlace), and its packing in panels of eight columns for the packed product
;; (panelFlags, packPanels; the product itself is kdeProduct.wat). Uses $gauss (gaussian.wat),
;; $expRange (expLog.wat), $subtractScalarInPlace and $expShiftedFlushed (compensatedWeights.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  ;; In place on one row of m ≥ 4: its maximum, then row = exp(row − maximum), 0 below $flush when
  ;; it is above 0 (see compensated.ts); returns the maximum. Max is idempotent, so the last vector
  ;; of the first pass may overlap the one before it.
  (func $rowScaledExpInPlace (param $row i32) (param $m i32) (param $flush f32) (result f32)
    (local $at i32) (local $last i32) (local $mx v128) (local $top f32)
    (local.set $last (i32.sub (i32.shl (local.get $m) (i32.const 2)) (i32.const 16)))
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (loop $col
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (local.set $mx (f32x4.max (local.get $mx) (v128.load (i32.add (local.get $row) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $col (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16)))))
    (local.set $top
      (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
        (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))
    (if (f32.gt (local.get $flush) (f32.const 0))
      (then (call $expShiftedFlushed (local.get $row) (local.get $top) (local.get $flush) (local.get $m)))
      (else
        (call $subtractScalarInPlace (local.get $row) (local.get $top) (local.get $m))
        (call $expRange (local.get $row) (local.get $row) (local.get $m))))
    (local.get $top))

  ;; The compensated strategy's position factor for `count` encoding spikes taken in `order` (i32)
  ;; from `first` on, straight from their positions: row i is spike order[first + i]'s log position
  ;; kernel against the m ≥ 4 bins, as $gauss forms it from a (E × q, positions over their kernel
  ;; widths) and bt (q × m, the bins likewise), then rowMax[i] = its maximum and the row
  ;; exp(row − rowMax[i]), 0 below $flush when it is above 0 (see compensated.ts) — the op graph
  ;; max → sub → exp (→ less → where) in one pass per row in cache, with no gathered or sliced copy
  ;; of the positions and no (count × m) log kernel in memory.
  (func (export "positionFactorRows") (param $a i32) (param $order i32) (param $first i32) (param $count i32) (param $q i32)
    (param $bt i32) (param $m i32) (param $c f32) (param $dst i32) (param $rowMax i32) (param $flush f32)
    (local $i i32) (local $rowBytes i32) (local $orow i32) (local $spike i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $spike (i32.load (i32.add (local.get $order) (i32.shl (i32.add (local.get $first) (local.get $i)) (i32.const 2)))))
        (call $gauss (i32.add (local.get $a) (i32.shl (i32.mul (local.get $spike) (local.get $q)) (i32.const 2)))
          (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $orow) (i32.const 0))
        (f32.store (i32.add (local.get $rowMax) (i32.shl (local.get $i) (i32.const 2)))
          (call $rowScaledExpInPlace (local.get $orow) (local.get $m) (local.get $flush)))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; flags[p] (i32) = 1 when columns 8p … 8p+7 of b (k × n) hold anything but 0 (a NaN counts), else
  ;; 0; returns how many are 1. A position factor built from spikes sorted by position is 0 (flushed)
  ;; far from the chunk's positions, so many of its panels are empty.
  (func (export "panelFlags") (param $b i32) (param $k i32) (param $n i32) (param $flags i32) (result i32)
    (local $p i32) (local $panels i32) (local $rowBytes i32) (local $row i32) (local $at i32) (local $end i32)
    (local $any v128) (local $c i32) (local $count i32)
    (local.set $panels (i32.shr_u (i32.add (local.get $n) (i32.const 7)) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end (i32.mul (local.get $k) (local.get $rowBytes)))
    (block $panelsDone
      (loop $panel
        (br_if $panelsDone (i32.ge_u (local.get $p) (local.get $panels)))
        (local.set $any (v128.const i32x4 0 0 0 0))
        (local.set $at (i32.add (local.get $b) (i32.shl (local.get $p) (i32.const 5))))
        (local.set $row (i32.const 0))
        (if (i32.ge_u (i32.sub (local.get $n) (i32.shl (local.get $p) (i32.const 3))) (i32.const 8))
          (then
            (block $rowsDone
              (loop $rows
                (br_if $rowsDone (i32.ge_u (local.get $row) (local.get $end)))
                (local.set $any
                  (v128.or (local.get $any)
                    (v128.or
                      (f32x4.ne (v128.load (i32.add (local.get $at) (local.get $row))) (v128.const f32x4 0 0 0 0))
                      (f32x4.ne (v128.load offset=16 (i32.add (local.get $at) (local.get $row))) (v128.const f32x4 0 0 0 0)))))
                (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
                (br $rows))))
          (else
            ;; the last, narrower panel one value at a time
            (block $tailDone
              (loop $tail
                (br_if $tailDone (i32.ge_u (local.get $row) (local.get $end)))
                (local.set $c (i32.shl (local.get $p) (i32.const 3)))
                (block $colsDone
                  (loop $col
                    (br_if $colsDone (i32.ge_u (local.get $c) (local.get $n)))
                    (if (f32.ne (f32.load (i32.add (i32.add (local.get $b) (local.get $row)) (i32.shl (local.get $c) (i32.const 2)))) (f32.const 0))
                      (then (local.set $any (v128.const i32x4 -1 -1 -1 -1))))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $col)))
                (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
                (br $tail)))))
        (i32.store (i32.add (local.get $flags) (i32.shl (local.get $p) (i32.const 2))) (v128.any_true (local.get $any)))
        (local.set $count (i32.add (local.get $count) (v128.any_true (local.get $any))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $panel)))
    (local.get $count))

  ;; Packs b (k × n) into panels of eight columns for packedProduct: panel p holds columns 8p … 8p+7
  ;; as k rows of eight floats, one after the other, the columns past n set to 0. The product then
  ;; reads its right operand as one stream (two vector loads per row) instead of one cache line per row.
  ;; With $flags (panelFlags; 0: none) only the panels flagged 1 are stored, one after the other.
  (func (export "packPanels") (param $b i32) (param $k i32) (param $n i32) (param $flags i32) (param $dst i32)
    (local $p i32) (local $panels i32) (local $rowBytes i32) (local $cols i32) (local $src i32) (local $out i32)
    (local $end i32) (local $c i32)
    (local.set $panels (i32.shr_u (i32.add (local.get $n) (i32.const 7)) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $out (local.get $dst))
    (block $panelsDone
      (loop $panel
        (br_if $panelsDone (i32.ge_u (local.get $p) (local.get $panels)))
        (if (local.get $flags)
          (then
            (if (i32.eqz (i32.load (i32.add (local.get $flags) (i32.shl (local.get $p) (i32.const 2)))))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $panel)))))
        (local.set $cols (i32.sub (local.get $n) (i32.shl (local.get $p) (i32.const 3))))
        (local.set $src (i32.add (local.get $b) (i32.shl (local.get $p) (i32.const 5))))
        (local.set $end (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 5))))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $out) (local.get $end)))
            (if (i32.ge_u (local.get $cols) (i32.const 8))
              (then
                (v128.store (local.get $out) (v128.load (local.get $src)))
                (v128.store offset=16 (local.get $out) (v128.load offset=16 (local.get $src))))
              (else
                (v128.store (local.get $out) (v128.const f32x4 0 0 0 0))
                (v128.store offset=16 (local.get $out) (v128.const f32x4 0 0 0 0))
                (local.set $c (i32.const 0))
                (block $colsDone
                  (loop $col
                    (br_if $colsDone (i32.ge_u (local.get $c) (local.get $cols)))
                    (f32.store (i32.add (local.get $out) (i32.shl (local.get $c) (i32.const 2)))
                      (f32.load (i32.add (local.get $src) (i32.shl (local.get $c) (i32.const 2)))))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $col)))))
            (local.set $src (i32.add (local.get $src) (local.get $rowBytes)))
            (local.set $out (i32.add (local.get $out) (i32.const 32)))
            (br $row)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $panel))))

;; The constants of $interpolatedRowSums' weight, written to memory once per call: as v128.const
  ;; in its loop V8 builds each from immediates (three instructions, every iteration); a load costs one.
  ;; 0: the clamp 125; 16 … 112: 2^−r's Taylor coefficients (−ln 2)^k/k! for k = 6 … 0; 128: 1.5·2^23
  ;; (rounding to an integer by an add); 144: that number's bits plus the exponent bias 127, as integers.
