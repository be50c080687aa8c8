;; Row helpers that accumulate ($addInto, $subtractScalarInPlace, $addInPlaceMax), the shifted log
;; kernel of a block, the flushed exp ($expShiftedFlushed, exported as expFlushed) and the
;; compensated strategy's weights (compensatedWeights). Uses $gauss (gaussian.wat) and $expRange
;; (expLog.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  ;; sum += part, count floats
  (func $addInto (param $sum i32) (param $part i32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32)
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $sum) (local.get $at))
          (f32x4.add (v128.load (i32.add (local.get $sum) (local.get $at))) (v128.load (i32.add (local.get $part) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $sum) (local.get $at))
          (f32.add (f32.load (i32.add (local.get $sum) (local.get $at))) (f32.load (i32.add (local.get $part) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))
  ;; row −= s, in place: a vector loop, then the 0–3 leftover lanes one at a time (an overlapping
  ;; last vector would subtract twice)
  (func $subtractScalarInPlace (param $row i32) (param $s f32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $sv v128)
    (local.set $sv (f32x4.splat (local.get $s)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.sub (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $sv)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.sub (f32.load (i32.add (local.get $row) (local.get $at))) (local.get $s)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; row += vec in place (a vector loop, then the 0–3 leftover lanes one at a time: an overlapping
  ;; last vector would add twice), count ≥ 4, returning the largest sum
  (func $addInPlaceMax (param $row i32) (param $vec i32) (param $count i32) (result f32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $v v128) (local $mx v128) (local $top f32) (local $f f32)
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (local.set $v (f32x4.add (v128.load (i32.add (local.get $row) (local.get $at))) (v128.load (i32.add (local.get $vec) (local.get $at)))))
        (v128.store (i32.add (local.get $row) (local.get $at)) (local.get $v))
        (local.set $mx (f32x4.max (local.get $mx) (local.get $v)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (local.set $top
      (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
        (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $f (f32.add (f32.load (i32.add (local.get $row) (local.get $at))) (f32.load (i32.add (local.get $vec) (local.get $at)))))
        (f32.store (i32.add (local.get $row) (local.get $at)) (local.get $f))
        (local.set $top (f32.max (local.get $top) (local.get $f)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next)))
    (local.get $top))

  ;; t[k, i] = logKmark[k, i] + shift[i] for one block (n × m, m ≥ 4), logKmark as $gauss forms
  ;; it (the same sums in the same order), returning max t. Marks of four features (tetrodes) keep
  ;; the row's four values and the four feature rows' addresses in registers, in one pass whose last
  ;; vector may overlap the one before it (same values); other widths go through $gauss a row at a time.
  (func $shiftedLogKernel (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32) (param $c f32)
    (param $shift i32) (param $dst i32) (result f32)
    (local $i i32) (local $at i32) (local $last i32) (local $rowBytes i32) (local $arow i32) (local $orow i32)
    (local $b1 i32) (local $b2 i32) (local $b3 i32) (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $diff v128) (local $acc v128) (local $v v128) (local $cv v128) (local $mx v128)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    (local.set $b1 (i32.add (local.get $bt) (local.get $rowBytes)))
    (local.set $b2 (i32.add (local.get $b1) (local.get $rowBytes)))
    (local.set $b3 (i32.add (local.get $b2) (local.get $rowBytes)))
    (local.set $cv (f32x4.splat (local.get $c)))
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $arow (local.get $a))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eq (local.get $d) (i32.const 4))
          (then
            (local.set $x0 (v128.load32_splat (local.get $arow)))
            (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))
            (local.set $x2 (v128.load32_splat offset=8 (local.get $arow)))
            (local.set $x3 (v128.load32_splat offset=12 (local.get $arow)))
            (local.set $at (i32.const 0))
            (loop $col
              (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
              ;; 0 + diff² is diff² exactly ($gauss starts its sum from 0)
              (local.set $diff (f32x4.sub (local.get $x0) (v128.load (i32.add (local.get $bt) (local.get $at)))))
              (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
              (local.set $diff (f32x4.sub (local.get $x1) (v128.load (i32.add (local.get $b1) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $diff (f32x4.sub (local.get $x2) (v128.load (i32.add (local.get $b2) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $diff (f32x4.sub (local.get $x3) (v128.load (i32.add (local.get $b3) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $v
                (f32x4.add
                  (f32x4.add (f32x4.mul (local.get $acc) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5)) (local.get $cv))
                  (v128.load (i32.add (local.get $shift) (local.get $at)))))
              (v128.store (i32.add (local.get $orow) (local.get $at)) (local.get $v))
              (local.set $mx (f32x4.max (local.get $mx) (local.get $v)))
              (local.set $at (i32.add (local.get $at) (i32.const 16)))
              (br_if $col (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))
          (else
            (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $d) (local.get $c) (local.get $orow) (i32.const 0))
            (local.set $mx (f32x4.max (local.get $mx) (f32x4.splat (call $addInPlaceMax (local.get $orow) (local.get $shift) (local.get $m)))))))
        (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row)))
    (f32.max
      (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
      (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))

  ;; row = exp(row − shift) in place, count ≥ 4, every entry ≤ shift, results below $flush (2^−63 or
  ;; more) set to 0. No kept result is subnormal, so 2^n is one exponent field and $expRange's
  ;; subnormal path is not needed: every kept lane has the bits $expRange gives it (p·2^n, both
  ;; exact, rounds once); the clamp at −87 keeps n ≥ −126 for the dropped ones. A NaN lane stays
  ;; NaN. The body is written out in the loop (a call per vector would cost as much as the exp); the
  ;; last vector goes first and is stored last, over the lanes it shares with the one before it.
  (func $expShiftedFlushed (param $row i32) (param $shift f32) (param $flush f32) (param $count i32)
    (local $at i32) (local $last i32) (local $sv v128) (local $fv v128) (local $tail v128) (local $first i32)
    (local $x v128) (local $t v128) (local $n v128) (local $r v128) (local $p v128)
    (local.set $sv (f32x4.splat (local.get $shift)))
    (local.set $fv (f32x4.splat (local.get $flush)))
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (local.set $at (local.get $last))
    (local.set $first (i32.const 1))
    (loop $next
      (local.set $x
        (f32x4.pmax
          (f32x4.sub (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $sv))
          (v128.const f32x4 -87 -87 -87 -87)))
      (local.set $t
        (f32x4.add
          (f32x4.mul (local.get $x) (v128.const f32x4 1.44269504088896341 1.44269504088896341 1.44269504088896341 1.44269504088896341))
          (v128.const f32x4 12582912 12582912 12582912 12582912)))
      (local.set $n (f32x4.sub (local.get $t) (v128.const f32x4 12582912 12582912 12582912 12582912)))
      (local.set $r
        (f32x4.sub
          (f32x4.sub (local.get $x) (f32x4.mul (local.get $n) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
          (f32x4.mul (local.get $n) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
      (local.set $p (v128.const f32x4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1)))
      (local.set $p
        (f32x4.add
          (f32x4.add (f32x4.mul (local.get $p) (f32x4.mul (local.get $r) (local.get $r))) (local.get $r))
          (v128.const f32x4 1 1 1 1)))
      ;; p·2^n, 2^n from the integer n that t's low bits hold, then the flush
      (local.set $x
        (f32x4.mul (local.get $p)
          (i32x4.shl
            (i32x4.add (i32x4.sub (local.get $t) (v128.const i32x4 0x4b400000 0x4b400000 0x4b400000 0x4b400000)) (v128.const i32x4 127 127 127 127))
            (i32.const 23))))
      (local.set $x (v128.andnot (local.get $x) (f32x4.lt (local.get $x) (local.get $fv))))
      (if (local.get $first)
        (then
          (local.set $tail (local.get $x))
          (local.set $first (i32.const 0))
          (local.set $at (i32.const 0)))
        (else
          (v128.store (i32.add (local.get $row) (local.get $at)) (local.get $x))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))))
      (br_if $next (i32.lt_u (local.get $at) (local.get $last))))
    (v128.store (i32.add (local.get $row) (local.get $last)) (local.get $tail)))

  ;; dst = exp(src) with results below $flush dropped, count ≥ 4: $expShiftedFlushed as the KDE,
  ;; position-factor and weights kernels run it, exported so the calibration can rate it (it outruns
  ;; the general exp, which keeps subnormal results). The copy first is part of what is timed.
  (func (export "expFlushed") (param $src i32) (param $dst i32) (param $count i32) (param $flush f32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (loop $copy
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at)) (v128.load (i32.add (local.get $src) (local.get $at))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $copy (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16)))))
    (call $expShiftedFlushed (local.get $dst) (f32.const 0) (local.get $flush) (local.get $count)))

  ;; The compensated strategy's weights for one block and one encoding chunk (kde-spec §7e), m ≥ 4.
  ;; With a_i = rowMax[i] and c_i = a_i + max_k logKmark[k, i] − log E, the spec's weight
  ;; exp(logKmark[k, i] − b_i)·exp(c_i − C*) is exp(t[k, i] − T) with t = logKmark + a_i and
  ;; T = max t = C* + log E: b_i cancels, so one exp per weight and no column maxima. Returns C*.
  ;; Weights below $flush (when it is above 0) are set to 0: see compensated.ts for when that is safe.
  (func (export "compensatedWeights") (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32)
        (param $c f32) (param $rowMax i32) (param $logE f32) (param $w i32) (param $flush f32) (result f32)
    (local $i i32) (local $rowBytes i32) (local $row i32) (local $top f32)
    (local.set $top (call $shiftedLogKernel (local.get $a) (local.get $bt) (local.get $n) (local.get $m) (local.get $d) (local.get $c)
      (local.get $rowMax) (local.get $w)))
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $row (local.get $w))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (if (f32.gt (local.get $flush) (f32.const 0))
          (then (call $expShiftedFlushed (local.get $row) (local.get $top) (local.get $flush) (local.get $m)))
          (else
            (call $subtractScalarInPlace (local.get $row) (local.get $top) (local.get $m))
            (call $expRange (local.get $row) (local.get $row) (local.get $m))))
        (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowLoop)))
    (f32.sub (local.get $top) (local.get $logE)))

