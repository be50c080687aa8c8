;; The series strategy's interpolated handoff (interpolatedTerms): mark kernel, Lagrange weights and
;; node kernels in one pass per block. Uses $fill (gaussian.wat), $logRange (expLog.wat) and
;; $offsetBiasFloor (biasFloor.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  (func $interpolationConstants (param $at i32)
    (v128.store offset=0 (local.get $at) (v128.const f32x4 125 125 125 125))
    (v128.store offset=16 (local.get $at) (v128.const f32x4 0.00015403530393381606 0.00015403530393381606 0.00015403530393381606 0.00015403530393381606))
    (v128.store offset=32 (local.get $at) (v128.const f32x4 -0.0013333558146428441 -0.0013333558146428441 -0.0013333558146428441 -0.0013333558146428441))
    (v128.store offset=48 (local.get $at) (v128.const f32x4 0.009618129107628477 0.009618129107628477 0.009618129107628477 0.009618129107628477))
    (v128.store offset=64 (local.get $at) (v128.const f32x4 -0.055504108664821576 -0.055504108664821576 -0.055504108664821576 -0.055504108664821576))
    (v128.store offset=80 (local.get $at) (v128.const f32x4 0.2402265069591007 0.2402265069591007 0.2402265069591007 0.2402265069591007))
    (v128.store offset=96 (local.get $at) (v128.const f32x4 -0.6931471805599453 -0.6931471805599453 -0.6931471805599453 -0.6931471805599453))
    (v128.store offset=112 (local.get $at) (v128.const f32x4 1.0 1.0 1.0 1.0))
    (v128.store offset=128 (local.get $at) (v128.const f32x4 12582912 12582912 12582912 12582912))
    (v128.store offset=144 (local.get $at) (v128.const i32x4 0x4b40007f 0x4b40007f 0x4b40007f 0x4b40007f)))

  ;; One decoding row (a: d floats) against the spike vectors [sv, svEnd) of a cell: the 8 sums
  ;; G_j = Σ_i w_i·L_j(x_i), w_i = 2^−|a − b_i|², each as four partial lanes, stored at gout (8 vectors).
  ;; A function of its own: with the cell loop's values around it, the loop's registers spilled.
  ;; w: acc = |a − b|² (the marks carry √(½·log2 e), so acc = ½|a − b|²·log2 e over the widths),
  ;; clamped at 125 so the scale 2^−n stays a normal float (an entry below 2^−125 counts as 2^−125,
  ;; less than the flush at 2^−63 that model/flush.ts allows); n = nearest(acc), 2^−(acc − n) by its
  ;; Taylor polynomial of degree 6 (within 1.2e-7 on |acc − n| ≤ ½; the series' own bound is 1e-6) in
  ;; Estrin's form, a shorter chain than Horner's, and 2^−n from the bits of acc + 1.5·2^23.
  (func $interpolatedRowSums (param $arow i32) (param $d i32) (param $sv i32) (param $svEnd i32) (param $vecBytes i32)
    (param $consts i32) (param $gout i32)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $diff v128) (local $acc v128) (local $sq v128)
    (local $t v128) (local $r v128) (local $r2 v128) (local $p v128) (local $even v128) (local $w v128) (local $lv i32) (local $dd i32)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128) (local $g4 v128) (local $g5 v128) (local $g6 v128) (local $g7 v128)
    (local.set $x0 (v128.load32_splat (local.get $arow)))
    (if (i32.eq (local.get $d) (i32.const 4))
      (then
        (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))
        (local.set $x2 (v128.load32_splat offset=8 (local.get $arow)))
        (local.set $x3 (v128.load32_splat offset=12 (local.get $arow)))))
    (block $spikesDone
      (loop $spike
        (br_if $spikesDone (i32.ge_u (local.get $sv) (local.get $svEnd)))
        (local.set $diff (f32x4.sub (local.get $x0) (v128.load (local.get $sv))))
        (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
        (if (i32.eq (local.get $d) (i32.const 4))
          (then
            ;; (d0² + d1²) + (d2² + d3²): a shorter chain than one running sum
            (local.set $diff (f32x4.sub (local.get $x1) (v128.load offset=16 (local.get $sv))))
            (local.set $acc (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $acc)))
            (local.set $diff (f32x4.sub (local.get $x2) (v128.load offset=32 (local.get $sv))))
            (local.set $sq (f32x4.mul (local.get $diff) (local.get $diff)))
            (local.set $diff (f32x4.sub (local.get $x3) (v128.load offset=48 (local.get $sv))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $sq)))))
          (else
            (local.set $dd (i32.const 1))
            (block $dimsDone
              (loop $dim
                (br_if $dimsDone (i32.ge_u (local.get $dd) (local.get $d)))
                (local.set $diff
                  (f32x4.sub
                    (v128.load32_splat (i32.add (local.get $arow) (i32.shl (local.get $dd) (i32.const 2))))
                    (v128.load (i32.add (local.get $sv) (i32.shl (local.get $dd) (i32.const 4))))))
                (local.set $acc (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $acc)))
                (local.set $dd (i32.add (local.get $dd) (i32.const 1)))
                (br $dim)))))
        (local.set $acc (f32x4.pmin (local.get $acc) (v128.load offset=0 (local.get $consts))))
        (local.set $t (f32x4.add (local.get $acc) (v128.load offset=128 (local.get $consts))))
        (local.set $r (f32x4.sub (local.get $acc) (f32x4.nearest (local.get $acc))))
        (local.set $r2 (f32x4.mul (local.get $r) (local.get $r)))
        (local.set $p
          (f32x4.relaxed_madd
            (f32x4.relaxed_madd (v128.load offset=16 (local.get $consts)) (local.get $r) (v128.load offset=32 (local.get $consts)))
            (local.get $r2)
            (f32x4.relaxed_madd (v128.load offset=48 (local.get $consts)) (local.get $r) (v128.load offset=64 (local.get $consts)))))
        (local.set $even
          (f32x4.relaxed_madd
            (v128.load offset=80 (local.get $consts))
            (local.get $r2)
            (f32x4.relaxed_madd (v128.load offset=96 (local.get $consts)) (local.get $r) (v128.load offset=112 (local.get $consts)))))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (f32x4.mul (local.get $r2) (local.get $r)) (local.get $even)))
        (local.set $w
          (f32x4.mul (local.get $p)
            (i32x4.shl (i32x4.sub (v128.load offset=144 (local.get $consts)) (local.get $t)) (i32.const 23))))
        (local.set $lv (i32.add (local.get $sv) (i32.shl (local.get $d) (i32.const 4))))
        (local.set $g0 (f32x4.relaxed_madd (local.get $w) (v128.load offset=0 (local.get $lv)) (local.get $g0)))
        (local.set $g1 (f32x4.relaxed_madd (local.get $w) (v128.load offset=16 (local.get $lv)) (local.get $g1)))
        (local.set $g2 (f32x4.relaxed_madd (local.get $w) (v128.load offset=32 (local.get $lv)) (local.get $g2)))
        (local.set $g3 (f32x4.relaxed_madd (local.get $w) (v128.load offset=48 (local.get $lv)) (local.get $g3)))
        (local.set $g4 (f32x4.relaxed_madd (local.get $w) (v128.load offset=64 (local.get $lv)) (local.get $g4)))
        (local.set $g5 (f32x4.relaxed_madd (local.get $w) (v128.load offset=80 (local.get $lv)) (local.get $g5)))
        (local.set $g6 (f32x4.relaxed_madd (local.get $w) (v128.load offset=96 (local.get $lv)) (local.get $g6)))
        (local.set $g7 (f32x4.relaxed_madd (local.get $w) (v128.load offset=112 (local.get $lv)) (local.get $g7)))
        (local.set $sv (i32.add (local.get $sv) (local.get $vecBytes)))
        (br $spike)))
    (v128.store offset=0 (local.get $gout) (local.get $g0))
    (v128.store offset=16 (local.get $gout) (local.get $g1))
    (v128.store offset=32 (local.get $gout) (local.get $g2))
    (v128.store offset=48 (local.get $gout) (local.get $g3))
    (v128.store offset=64 (local.get $gout) (local.get $g4))
    (v128.store offset=80 (local.get $gout) (local.get $g5))
    (v128.store offset=96 (local.get $gout) (local.get $g6))
    (v128.store offset=112 (local.get $gout) (local.get $g7)))

  ;; The series strategy's exact handoff on one-dimensional positions (strategies/series/interpolated.ts),
  ;; for a block of n decoding spikes (a: n × d):
  ;;   ℓ[k, p] = max(log(max(S[k, p], 0)) + off + bias[p], floor),  S[k, p] = Σ_chunks Σ_j G[k, j]·H[j, p],
  ;;   G[k, j] = Σ_(i in chunk) w[k, i]·L[j, i],  w[k, i] = exp(−½|a_k − b_i|²) (direct differences),
  ;; the marks a and b over their widths times √(½·log2 e), so that w = 2^−|a_k − b_i|².
  ;; L holds each spike's 8 Lagrange weights at its chunk's Chebyshev
  ;; nodes, H the position kernel at those nodes, so the (E × P) position kernel is never formed and
  ;; each weight costs 8 multiply-adds instead of one per stored bin.
  ;; Layouts, four spikes or four bins per vector so that every load has a constant offset:
  ;; - $spikes: per vector of 4 spikes, d × 4 mark floats then 8 × 4 Lagrange weights (zeros pad a chunk to a multiple of 4);
  ;; - $chunks: 5 int32 per chunk: first and end vector, first and end bin vector, its H's first float;
  ;; - $h: per chunk and vector of 4 bins, 8 × 4 floats (node j's 4 bins at 16·j bytes).
  ;; Within a cell the spikes are in order of their marks' projection on $dir (a unit vector, d floats),
  ;; and $bounds holds per vector the running maximum of its spikes' projections from the cell's start
  ;; and the running minimum from its end (2 floats, monotone, so a binary search finds where they
  ;; cross a value): a row skips the vectors whose every spike is more than $reach from it along $dir,
  ;; so more than $reach in mark space (|a − b|² > reach², a weight below 2^−reach²). Returns the
  ;; number of spike vectors the rows took, Σ over rows and cells (the work done, for the roofline).
  ;; $scratch: 288 bytes, a row's sums then the weight's constants ($interpolationConstants).
  ;; Chunks outer, rows inner: a chunk's spikes (tens of KB) stay in cache over the whole block, where
  ;; the row-major order would stream the electrode's every spike once per row. dst is n × m, m ≥ 4
  ;; a multiple of 4, n ≥ 1.
  (func (export "interpolatedTerms")
    (param $a i32) (param $n i32) (param $d i32) (param $spikes i32) (param $chunks i32) (param $nChunks i32) (param $h i32)
    (param $m i32) (param $off f32) (param $bias i32) (param $floor f32) (param $dst i32)
    (param $dir i32) (param $bounds i32) (param $reach f32) (param $scratch i32) (result i32)
    (local $done i32)
    (local $proj f32) (local $scale f32) (local $term f32) (local $lo i32) (local $hi i32) (local $mid i32) (local $first i32) (local $end i32)
    (local $c i32) (local $ct i32) (local $k i32) (local $sv i32) (local $svEnd i32) (local $vecBytes i32)
    (local $rowBytes i32) (local $arow i32) (local $orow i32) (local $oEnd i32) (local $hv i32) (local $dd i32) (local $r v128)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128) (local $g4 v128) (local $g5 v128) (local $g6 v128) (local $g7 v128) 
    (call $interpolationConstants (i32.add (local.get $scratch) (i32.const 128)))
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $vecBytes (i32.shl (i32.add (local.get $d) (i32.const 8)) (i32.const 4)))
    (call $fill (local.get $dst) (i32.mul (local.get $rowBytes) (local.get $n)) (v128.const i32x4 0 0 0 0))
    (block $chunksDone
      (loop $chunk
        (br_if $chunksDone (i32.ge_u (local.get $c) (local.get $nChunks)))
        (local.set $ct (i32.add (local.get $chunks) (i32.mul (local.get $c) (i32.const 20))))
        (local.set $k (i32.const 0))
        (local.set $arow (local.get $a))
        (local.set $orow (local.get $dst))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $n)))
            ;; the row's projection on the direction, and the cell's vectors that may hold a spike within
            ;; $reach of it along that direction (farther ones are farther in mark space too)
            ;; ($scale: Σ|a_d·u_d|, which bounds the float32 dot's rounding well below 2^−20 of it)
            (local.set $proj (f32.const 0))
            (local.set $scale (f32.const 0))
            (local.set $dd (i32.const 0))
            (loop $dot
              (local.set $term
                (f32.mul
                  (f32.load (i32.add (local.get $arow) (i32.shl (local.get $dd) (i32.const 2))))
                  (f32.load (i32.add (local.get $dir) (i32.shl (local.get $dd) (i32.const 2))))))
              (local.set $proj (f32.add (local.get $proj) (local.get $term)))
              (local.set $scale (f32.add (local.get $scale) (f32.abs (local.get $term))))
              (local.set $dd (i32.add (local.get $dd) (i32.const 1)))
              (br_if $dot (i32.lt_u (local.get $dd) (local.get $d))))
            (local.set $scale (f32.add (local.get $reach) (f32.mul (local.get $scale) (f32.const 0x1p-20))))
            ;; first vector whose running maximum reaches proj − reach
            (local.set $lo (i32.load (local.get $ct)))
            (local.set $hi (i32.load offset=4 (local.get $ct)))
            (block $found
              (loop $search
                (br_if $found (i32.ge_u (local.get $lo) (local.get $hi)))
                (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
                (if (f32.lt (f32.load (i32.add (local.get $bounds) (i32.shl (local.get $mid) (i32.const 3)))) (f32.sub (local.get $proj) (local.get $scale)))
                  (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
                  (else (local.set $hi (local.get $mid))))
                (br $search)))
            (local.set $first (local.get $lo))
            ;; first vector whose running minimum from the end passes proj + reach: the range's end
            (local.set $hi (i32.load offset=4 (local.get $ct)))
            (block $found
              (loop $search
                (br_if $found (i32.ge_u (local.get $lo) (local.get $hi)))
                (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
                (if (f32.le (f32.load offset=4 (i32.add (local.get $bounds) (i32.shl (local.get $mid) (i32.const 3)))) (f32.add (local.get $proj) (local.get $scale)))
                  (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
                  (else (local.set $hi (local.get $mid))))
                (br $search)))
            (local.set $end (local.get $lo))
            (local.set $done (i32.add (local.get $done) (i32.sub (local.get $end) (local.get $first))))
            (local.set $sv (i32.add (local.get $spikes) (i32.mul (local.get $first) (local.get $vecBytes))))
            (local.set $svEnd (i32.add (local.get $spikes) (i32.mul (local.get $end) (local.get $vecBytes))))
            (if (i32.lt_u (local.get $first) (local.get $end))
              (then
                ;; the row's 8 sums over the vectors in its window (none: nothing to add)
                (call $interpolatedRowSums (local.get $arow) (local.get $d) (local.get $sv) (local.get $svEnd) (local.get $vecBytes)
                  (i32.add (local.get $scratch) (i32.const 128)) (local.get $scratch))
                (local.set $g0 (v128.load offset=0 (local.get $scratch)))
                (local.set $g1 (v128.load offset=16 (local.get $scratch)))
                (local.set $g2 (v128.load offset=32 (local.get $scratch)))
                (local.set $g3 (v128.load offset=48 (local.get $scratch)))
                (local.set $g4 (v128.load offset=64 (local.get $scratch)))
                (local.set $g5 (v128.load offset=80 (local.get $scratch)))
                (local.set $g6 (v128.load offset=96 (local.get $scratch)))
                (local.set $g7 (v128.load offset=112 (local.get $scratch)))
                ;; each G in all four lanes
                (local.set $g0 (f32x4.add (local.get $g0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g0) (local.get $g0))))
                (local.set $g0 (f32x4.add (local.get $g0) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g0) (local.get $g0))))
                (local.set $g1 (f32x4.add (local.get $g1) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g1) (local.get $g1))))
                (local.set $g1 (f32x4.add (local.get $g1) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g1) (local.get $g1))))
                (local.set $g2 (f32x4.add (local.get $g2) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g2) (local.get $g2))))
                (local.set $g2 (f32x4.add (local.get $g2) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g2) (local.get $g2))))
                (local.set $g3 (f32x4.add (local.get $g3) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g3) (local.get $g3))))
                (local.set $g3 (f32x4.add (local.get $g3) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g3) (local.get $g3))))
                (local.set $g4 (f32x4.add (local.get $g4) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g4) (local.get $g4))))
                (local.set $g4 (f32x4.add (local.get $g4) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g4) (local.get $g4))))
                (local.set $g5 (f32x4.add (local.get $g5) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g5) (local.get $g5))))
                (local.set $g5 (f32x4.add (local.get $g5) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g5) (local.get $g5))))
                (local.set $g6 (f32x4.add (local.get $g6) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g6) (local.get $g6))))
                (local.set $g6 (f32x4.add (local.get $g6) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g6) (local.get $g6))))
                (local.set $g7 (f32x4.add (local.get $g7) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g7) (local.get $g7))))
                (local.set $g7 (f32x4.add (local.get $g7) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g7) (local.get $g7))))
                (local.set $hv (i32.add (local.get $h) (i32.shl (i32.load offset=16 (local.get $ct)) (i32.const 2))))
                (local.set $oEnd (i32.add (local.get $orow) (i32.shl (i32.load offset=12 (local.get $ct)) (i32.const 4))))
                (local.set $dd (i32.add (local.get $orow) (i32.shl (i32.load offset=8 (local.get $ct)) (i32.const 4))))
                (block $binsDone
                  (loop $bins
                    (br_if $binsDone (i32.ge_u (local.get $dd) (local.get $oEnd)))
                    (local.set $r (v128.load (local.get $dd)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g0) (v128.load offset=0 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g1) (v128.load offset=16 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g2) (v128.load offset=32 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g3) (v128.load offset=48 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g4) (v128.load offset=64 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g5) (v128.load offset=80 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g6) (v128.load offset=96 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g7) (v128.load offset=112 (local.get $hv)) (local.get $r)))
                    (v128.store (local.get $dd) (local.get $r))
                    (local.set $dd (i32.add (local.get $dd) (i32.const 16)))
                    (local.set $hv (i32.add (local.get $hv) (i32.const 128)))
                    (br $bins)))))
            (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
            (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $row)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $chunk)))
    ;; each row: a sum that rounding left below 0 is an underflowed one (log −inf, the floor), then the epilogue
    (local.set $orow (local.get $dst))
    (local.set $k (i32.const 0))
    (block $epilogueDone
      (loop $row
        (br_if $epilogueDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $dd (i32.const 0))
        (loop $clamp
          (v128.store (i32.add (local.get $orow) (local.get $dd))
            (f32x4.max (v128.load (i32.add (local.get $orow) (local.get $dd))) (v128.const i32x4 0 0 0 0)))
          (local.set $dd (i32.add (local.get $dd) (i32.const 16)))
          (br_if $clamp (i32.lt_u (local.get $dd) (local.get $rowBytes))))
        (call $logRange (local.get $orow) (local.get $orow) (local.get $m))
        (call $offsetBiasFloor (local.get $orow) (local.get $off) (local.get $bias) (local.get $floor) (local.get $m))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row)))
    (local.get $done))
