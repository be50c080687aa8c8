;; The Gaussian kernel matrix ($gauss, exported as gauss), the position kernel's column rescaling
;; (columnScaledExp, with its row helpers) and a Gaussian KDE's column sums without its kernel in
;; memory (kdeColumnSums, through $columnMaxima). Uses $expRange (expLog.wat), $addInto and
;; $expShiftedFlushed (compensatedWeights.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  ;; Gaussian kernel matrix, (n × m), m ≥ 4: dst[i, j] = c − ½·Σ_k (a[i, k] − bt[k, j])², or its exp
  ;; when $linear is not 0. a (n × d) and bt (d × m) are already divided by the kernel widths; bt is
  ;; transposed so that four neighbouring j are one vector load. The sum over k runs in order from
  ;; zero, then the product with −½ and the sum with c, the same float operations in the same order
  ;; as the op graph squaredDifference → sum → mul → add that this replaces.
  (func $gauss (export "gauss") (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32)
        (param $c f32) (param $dst i32) (param $linear i32)
    (local $i i32) (local $at i32) (local $k i32) (local $last i32) (local $rowBytes i32)
    (local $arow i32) (local $orow i32) (local $acc v128) (local $diff v128) (local $v v128) (local $cv v128)
    (local $x0 v128) (local $x1 v128) (local $b1 i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    (local.set $cv (f32x4.splat (local.get $c)))
    (local.set $b1 (i32.add (local.get $bt) (local.get $rowBytes)))
    (local.set $arow (local.get $a))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        ;; one or two dimensions (positions, the presets' marks): the row's values stay in registers
        (if (i32.lt_u (i32.sub (local.get $d) (i32.const 1)) (i32.const 2))
          (then
            (local.set $x0 (v128.load32_splat (local.get $arow)))
            (if (i32.eq (local.get $d) (i32.const 2)) (then (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))))))
        (local.set $at (i32.const 0))
        (block $colsDone
          (loop $col
            (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
            ;; 0 + diff² is diff² exactly: every width sums in the same order
            (if (i32.lt_u (i32.sub (local.get $d) (i32.const 1)) (i32.const 2))
              (then
                (local.set $diff (f32x4.sub (local.get $x0) (v128.load (i32.add (local.get $bt) (local.get $at)))))
                (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
                (if (i32.eq (local.get $d) (i32.const 2))
                  (then
                    (local.set $diff (f32x4.sub (local.get $x1) (v128.load (i32.add (local.get $b1) (local.get $at)))))
                    (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff)))))))
              (else
                (local.set $acc (v128.const f32x4 0 0 0 0))
                (local.set $k (i32.const 0))
                (block $dimsDone
                  (loop $dim
                    (br_if $dimsDone (i32.ge_u (local.get $k) (local.get $d)))
                    (local.set $diff
                      (f32x4.sub
                        (f32x4.splat (f32.load (i32.add (local.get $arow) (i32.shl (local.get $k) (i32.const 2)))))
                        (v128.load
                          (i32.add
                            (i32.add (local.get $bt) (i32.mul (local.get $k) (local.get $rowBytes)))
                            (local.get $at)))))
                    (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $dim)))))
            (local.set $v (f32x4.add (f32x4.mul (local.get $acc) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5)) (local.get $cv)))
            (v128.store (i32.add (local.get $orow) (local.get $at)) (local.get $v))
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $col)))
        ;; exp once the row is written and still in cache: a call per vector would cost as much as the exp
        (if (local.get $linear) (then (call $expRange (local.get $orow) (local.get $orow) (local.get $m))))
        (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))
  ;; Row helpers for columnScaledExp. The first three are idempotent on a lane, so their last
  ;; vector may overlap the one before it; the fourth accumulates, so its 0–3 leftover lanes go one
  ;; at a time.
  (func $fill (param $dst i32) (param $bytes i32) (param $v v128)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at)) (local.get $v))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  (func $maxInto (param $acc i32) (param $row i32) (param $bytes i32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $acc) (local.get $at))
        (f32x4.max
          (v128.load (i32.add (local.get $acc) (local.get $at)))
          (v128.load (i32.add (local.get $row) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  (func $subtract (param $a i32) (param $b i32) (param $dst i32) (param $bytes i32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at))
        (f32x4.sub
          (v128.load (i32.add (local.get $a) (local.get $at)))
          (v128.load (i32.add (local.get $b) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  ;; sum += row, then row *= scale
  (func $accumulateAndScale (param $row i32) (param $sum i32) (param $scale i32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $v v128) (local $f f32)
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (local.set $v (v128.load (i32.add (local.get $row) (local.get $at))))
        (v128.store (i32.add (local.get $sum) (local.get $at))
          (f32x4.add (v128.load (i32.add (local.get $sum) (local.get $at))) (local.get $v)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.mul (local.get $v) (v128.load (i32.add (local.get $scale) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $f (f32.load (i32.add (local.get $row) (local.get $at))))
        (f32.store (i32.add (local.get $sum) (local.get $at))
          (f32.add (f32.load (i32.add (local.get $sum) (local.get $at))) (local.get $f)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.mul (local.get $f) (f32.load (i32.add (local.get $scale) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; The linear position kernel with its per-column rescaling (see ops/linearPositionKernel.ts),
  ;; x (n × m), m ≥ 4: colMax[j] = max_i x[i, j]; s = exp(x − colMax) summed into
  ;; colSum[j] in row order; dst = s·exp(colMax). expMax (m floats) is scratch from the caller.
  ;; Each row is shifted, exponentiated, summed and scaled while it is in cache.
  ;; The column sums go through a partial sum of at most 256 rows (partial, m floats of scratch), so
  ;; rounding grows with 256 + n/256 terms instead of n (85 000 spikes on a production tetrode).
  ;; With $flush above 0, s below it is 0 (model/flush.ts says when that is safe) and the exp needs
  ;; no subnormal path.
  (func (export "columnScaledExp") (param $x i32) (param $n i32) (param $m i32) (param $colMax i32)
        (param $colSum i32) (param $expMax i32) (param $dst i32) (param $partial i32) (param $flush f32)
    (local $i i32) (local $rowBytes i32) (local $xrow i32) (local $orow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (call $fill (local.get $colMax) (local.get $rowBytes) (v128.const f32x4 -inf -inf -inf -inf))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (local.set $xrow (local.get $x))
    (block $maxDone
      (loop $maxRow
        (br_if $maxDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $maxInto (local.get $colMax) (local.get $xrow) (local.get $rowBytes))
        (local.set $xrow (i32.add (local.get $xrow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $maxRow)))
    (call $expRange (local.get $colMax) (local.get $expMax) (local.get $m))
    (local.set $i (i32.const 0))
    (local.set $xrow (local.get $x))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $scaledRowIntoSums (local.get $xrow) (local.get $orow) (local.get $i) (local.get $n) (local.get $m)
          (local.get $colMax) (local.get $expMax) (local.get $partial) (local.get $colSum) (local.get $flush))
        (local.set $xrow (i32.add (local.get $xrow) (local.get $rowBytes)))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; Row i of n of the column-scaled kernel, columnScaledExp's second pass: dst = exp(src − colMax),
  ;; 0 below $flush when it is above 0, added to the partial sum of its 256 rows (zeroed at rows 0,
  ;; 256, …; added into colSum after rows 255, 511, … and the last), then dst ·= expMax. src may be
  ;; dst when m is a multiple of 4 (no vector of the subtraction overlaps another).
  (func $scaledRowIntoSums (param $src i32) (param $dst i32) (param $i i32) (param $n i32) (param $m i32)
        (param $colMax i32) (param $expMax i32) (param $partial i32) (param $colSum i32) (param $flush f32)
    (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (call $subtract (local.get $src) (local.get $colMax) (local.get $dst) (local.get $rowBytes))
    (if (f32.gt (local.get $flush) (f32.const 0))
      (then (call $expShiftedFlushed (local.get $dst) (f32.const 0) (local.get $flush) (local.get $m)))
      (else (call $expRange (local.get $dst) (local.get $dst) (local.get $m))))
    (if (i32.eqz (i32.and (local.get $i) (i32.const 255)))
      (then (call $fill (local.get $partial) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))))
    (call $accumulateAndScale (local.get $dst) (local.get $partial) (local.get $expMax) (local.get $m))
    (if (i32.or
          (i32.eqz (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const 255)))
          (i32.eq (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
      (then (call $addInto (local.get $colSum) (local.get $partial) (local.get $m)))))

  ;; colMax[j] = max_i of $gauss's log kernel of samples a (n × q) at points bt (q × m), each row
  ;; formed in `row` (m floats of scratch). The callers skip it when the caller has the maxima
  ;; already ($maxGiven: for one-dimensional samples, the nearest sample's value, bit for bit).
  (func $columnMaxima (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
    (param $colMax i32) (param $row i32)
    (local $i i32) (local $rowBytes i32) (local $sampleBytes i32) (local $arow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colMax) (local.get $rowBytes) (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $arow (local.get $a))
    (block $maxDone
      (loop $maxRow
        (br_if $maxDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $row) (i32.const 0))
        (call $maxInto (local.get $colMax) (local.get $row) (local.get $rowBytes))
        (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $maxRow))))

  ;; The column sums of a Gaussian KDE part without its kernel in memory, m ≥ 4: for samples a
  ;; (n × q) and evaluation points bt (q × m), both over the kernel widths, logK[i, j] as $gauss forms
  ;; it; colMax[j] = max_i logK[i, j] and colSum[j] = Σ_i exp(logK[i, j] − colMax[j]), in row order
  ;; through partial sums of 256 rows as columnScaledExp adds them. Each row is formed twice (for the
  ;; maximum, then for the sum) in `row` (m floats of scratch; `shifted` and `partial` m more each)
  ;; instead of being stored; with $maxGiven the caller has written colMax (the nearest sample's
  ;; value, for one-dimensional samples) and each row is formed once. Terms below 2^−63 of their
  ;; column's maximum are dropped (the flushed exp): a column's sum is at least 1, so at most n·2^−63
  ;; of it, far below a float32 rounding.
  (func (export "kdeColumnSums") (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
    (param $colMax i32) (param $colSum i32) (param $row i32) (param $shifted i32) (param $partial i32) (param $maxGiven i32)
    (local $i i32) (local $rowBytes i32) (local $arow i32) (local $sampleBytes i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (if (i32.eqz (local.get $maxGiven)) (then (call $columnMaxima (local.get $a) (local.get $n) (local.get $q) (local.get $bt) (local.get $m)
      (local.get $c) (local.get $colMax) (local.get $row))))
    (local.set $i (i32.const 0))
    (local.set $arow (local.get $a))
    (block $rowsDone
      (loop $sumRow
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $row) (i32.const 0))
        (call $subtract (local.get $row) (local.get $colMax) (local.get $shifted) (local.get $rowBytes))
        (call $expShiftedFlushed (local.get $shifted) (f32.const 0) (f32.const 0x1p-63) (local.get $m))
        (if (i32.eqz (i32.and (local.get $i) (i32.const 255)))
          (then (call $fill (local.get $partial) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))))
        (call $addInto (local.get $partial) (local.get $shifted) (local.get $m))
        (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.or (i32.eqz (i32.and (local.get $i) (i32.const 255))) (i32.eq (local.get $i) (local.get $n)))
          (then (call $addInto (local.get $colSum) (local.get $partial) (local.get $m))))
        (br $sumRow))))

