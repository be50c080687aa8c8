;; The series strategy: its spike terms (seriesTerms), its factor (seriesFactor, $seriesFactorInto)
;; and a fit's electrode without its position kernel in memory (seriesGroundFactor). Uses $logRange
;; and $expRange (expLog.wat), $offsetBiasFloor (biasFloor.wat), $gauss, $fill, $columnMaxima and
;; $scaledRowIntoSums (gaussian.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  ;; The series strategy's spike terms (series.ts), m ≥ 4: for each decoding spike k,
  ;; dst[k, j] = max((log(max(Σ_α phi[k, α]·w[α, j], 0)) + rowOff[k]) + bias[j], floor), phi (n × f),
  ;; w (f × m). Each row is summed, logged and floored while it is in cache, instead of a matmul
  ;; with f (~10) as its inner dimension followed by five passes over the (n × m) terms.
  (func (export "seriesTerms") (param $phi i32) (param $w i32) (param $n i32) (param $m i32) (param $f i32)
        (param $rowOff i32) (param $bias i32) (param $floor f32) (param $dst i32)
    (local $k i32) (local $at i32) (local $last i32) (local $rowBytes i32) (local $fBytes i32)
    (local $prow i32) (local $drow i32) (local $a i32) (local $wp i32) (local $acc v128)
    (local $acc1 v128) (local $acc2 v128) (local $acc3 v128) (local $ph v128) (local $quadEnd i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $fBytes (i32.shl (local.get $f) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    ;; sixteen columns at a time while they fit: four independent sums instead of one chain of f adds
    (local.set $quadEnd (i32.and (local.get $rowBytes) (i32.const -64)))
    (local.set $prow (local.get $phi))
    (local.set $drow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $at (i32.const 0))
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.ge_u (local.get $at) (local.get $quadEnd)))
            (local.set $acc (v128.const f32x4 0 0 0 0))
            (local.set $acc1 (v128.const f32x4 0 0 0 0))
            (local.set $acc2 (v128.const f32x4 0 0 0 0))
            (local.set $acc3 (v128.const f32x4 0 0 0 0))
            (local.set $a (i32.const 0))
            (local.set $wp (i32.add (local.get $w) (local.get $at)))
            (block $quadFeaturesDone
              (loop $quadFeature
                (br_if $quadFeaturesDone (i32.ge_u (local.get $a) (local.get $fBytes)))
                (local.set $ph (v128.load32_splat (i32.add (local.get $prow) (local.get $a))))
                (local.set $acc (f32x4.relaxed_madd (local.get $ph) (v128.load (local.get $wp)) (local.get $acc)))
                (local.set $acc1 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=16 (local.get $wp)) (local.get $acc1)))
                (local.set $acc2 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=32 (local.get $wp)) (local.get $acc2)))
                (local.set $acc3 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=48 (local.get $wp)) (local.get $acc3)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (local.set $a (i32.add (local.get $a) (i32.const 4)))
                (br $quadFeature)))
            (v128.store (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=16 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc1) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=32 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc2) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=48 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc3) (v128.const f32x4 0 0 0 0)))
            (local.set $at (i32.add (local.get $at) (i32.const 64)))
            (br $quad)))
        ;; the rest four columns at a time, the last vector overlapping the one before it
        (block $colsDone
          (loop $col
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $rowBytes)))
            (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
            (local.set $acc (v128.const f32x4 0 0 0 0))
            (local.set $a (i32.const 0))
            (local.set $wp (i32.add (local.get $w) (local.get $at)))
            (block $featuresDone
              (loop $feature
                (br_if $featuresDone (i32.ge_u (local.get $a) (local.get $fBytes)))
                (local.set $acc
                  (f32x4.relaxed_madd (v128.load32_splat (i32.add (local.get $prow) (local.get $a))) (v128.load (local.get $wp)) (local.get $acc)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (local.set $a (i32.add (local.get $a) (i32.const 4)))
                (br $feature)))
            ;; a sum rounding left below zero is an underflowed one: log 0 = −inf, then the floor
            (v128.store (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc) (v128.const f32x4 0 0 0 0)))
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $col)))
        (call $logRange (local.get $drow) (local.get $drow) (local.get $m))
        (call $offsetBiasFloor (local.get $drow) (f32.load (i32.add (local.get $rowOff) (i32.shl (local.get $k) (i32.const 2))))
          (local.get $bias) (local.get $floor) (local.get $m))
        (local.set $prow (i32.add (local.get $prow) (local.get $fBytes)))
        (local.set $drow (i32.add (local.get $drow) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row))))

  ;; The series strategy's factor w = ψᵀ·K (f × m), ψ (e × f) with f a multiple of 4, K (e × m), m ≥ 4:
  ;; four features at a time, four accumulators per four columns, the sum over encoding spikes in
  ;; order. It reads K in place: wasm's matmul would first pack (copy) the whole (e × m) operand,
  ;; which costs more than the product itself at f ~ 10.
  (func (export "seriesFactor") (param $psi i32) (param $kpos i32) (param $e i32) (param $m i32) (param $f i32) (param $dst i32)
    (call $seriesFactorInto (local.get $psi) (local.get $kpos) (local.get $e) (local.get $m) (local.get $f) (local.get $dst) (i32.const 0)))

  ;; seriesFactor's product into dst, from zero or, with $accumulate (then m must be a multiple of
  ;; 4: no vector overlaps another), adding to what dst holds: rows taken a tile at a time then sum
  ;; in the same order as all rows at once, since each accumulator carries on where it stopped.
  (func $seriesFactorInto (param $psi i32) (param $kpos i32) (param $e i32) (param $m i32) (param $f i32) (param $dst i32) (param $accumulate i32)
    (local $at i32) (local $last i32) (local $rowBytes i32) (local $fBytes i32) (local $g i32)
    (local $i i32) (local $pp i32) (local $kp i32) (local $kv v128) (local $out i32)
    (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (local $acc4 v128) (local $acc5 v128) (local $acc6 v128) (local $acc7 v128) (local $kw v128) (local $ps v128)
    (local $pairEnd i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $fBytes (i32.shl (local.get $f) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    ;; eight columns at a time while they fit: eight independent sums per spike instead of four
    (local.set $pairEnd (i32.and (local.get $rowBytes) (i32.const -32)))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (local.get $at) (local.get $pairEnd)))
        (local.set $g (i32.const 0))
        (block $pairGroupsDone
          (loop $pairGroup
            (br_if $pairGroupsDone (i32.ge_u (local.get $g) (local.get $fBytes)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (if (local.get $accumulate)
              (then
                (local.set $acc0 (v128.load (local.get $out)))
                (local.set $acc4 (v128.load offset=16 (local.get $out)))
                (local.set $acc1 (v128.load (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc5 (v128.load offset=16 (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc2 (v128.load (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc6 (v128.load offset=16 (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc3 (v128.load (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3)))))
                (local.set $acc7 (v128.load offset=16 (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))))))
              (else
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $acc1 (v128.const f32x4 0 0 0 0))
                (local.set $acc2 (v128.const f32x4 0 0 0 0))
                (local.set $acc3 (v128.const f32x4 0 0 0 0))
                (local.set $acc4 (v128.const f32x4 0 0 0 0))
                (local.set $acc5 (v128.const f32x4 0 0 0 0))
                (local.set $acc6 (v128.const f32x4 0 0 0 0))
                (local.set $acc7 (v128.const f32x4 0 0 0 0))))
            (local.set $pp (i32.add (local.get $psi) (local.get $g)))
            (local.set $kp (i32.add (local.get $kpos) (local.get $at)))
            (local.set $i (i32.const 0))
            (block $pairSpikesDone
              (loop $pairSpike
                (br_if $pairSpikesDone (i32.ge_u (local.get $i) (local.get $e)))
                (local.set $kv (v128.load (local.get $kp)))
                (local.set $kw (v128.load offset=16 (local.get $kp)))
                (local.set $ps (v128.load32_splat (local.get $pp)))
                (local.set $acc0 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc0)))
                (local.set $acc4 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc4)))
                (local.set $ps (v128.load32_splat offset=4 (local.get $pp)))
                (local.set $acc1 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc1)))
                (local.set $acc5 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc5)))
                (local.set $ps (v128.load32_splat offset=8 (local.get $pp)))
                (local.set $acc2 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc2)))
                (local.set $acc6 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc6)))
                (local.set $ps (v128.load32_splat offset=12 (local.get $pp)))
                (local.set $acc3 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc3)))
                (local.set $acc7 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc7)))
                (local.set $pp (i32.add (local.get $pp) (local.get $fBytes)))
                (local.set $kp (i32.add (local.get $kp) (local.get $rowBytes)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $pairSpike)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (v128.store (local.get $out) (local.get $acc0))
            (v128.store offset=16 (local.get $out) (local.get $acc4))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc1))
            (v128.store offset=16 (local.get $out) (local.get $acc5))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc2))
            (v128.store offset=16 (local.get $out) (local.get $acc6))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc3))
            (v128.store offset=16 (local.get $out) (local.get $acc7))
            (local.set $g (i32.add (local.get $g) (i32.const 16)))
            (br $pairGroup)))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (br $pair)))
    ;; the rest four columns at a time, the last vector overlapping the one before it
    (block $colsDone
      (loop $col
        (br_if $colsDone (i32.ge_u (local.get $at) (local.get $rowBytes)))
        (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
        (local.set $g (i32.const 0))
        (block $groupsDone
          (loop $group
            (br_if $groupsDone (i32.ge_u (local.get $g) (local.get $fBytes)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (if (local.get $accumulate)
              (then
                (local.set $acc0 (v128.load (local.get $out)))
                (local.set $acc1 (v128.load (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc2 (v128.load (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc3 (v128.load (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))))))
              (else
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $acc1 (v128.const f32x4 0 0 0 0))
                (local.set $acc2 (v128.const f32x4 0 0 0 0))
                (local.set $acc3 (v128.const f32x4 0 0 0 0))))
            (local.set $pp (i32.add (local.get $psi) (local.get $g)))
            (local.set $kp (i32.add (local.get $kpos) (local.get $at)))
            (local.set $i (i32.const 0))
            (block $spikesDone
              (loop $spike
                (br_if $spikesDone (i32.ge_u (local.get $i) (local.get $e)))
                (local.set $kv (v128.load (local.get $kp)))
                (local.set $acc0 (f32x4.relaxed_madd (v128.load32_splat (local.get $pp)) (local.get $kv) (local.get $acc0)))
                (local.set $acc1 (f32x4.relaxed_madd (v128.load32_splat offset=4 (local.get $pp)) (local.get $kv) (local.get $acc1)))
                (local.set $acc2 (f32x4.relaxed_madd (v128.load32_splat offset=8 (local.get $pp)) (local.get $kv) (local.get $acc2)))
                (local.set $acc3 (f32x4.relaxed_madd (v128.load32_splat offset=12 (local.get $pp)) (local.get $kv) (local.get $acc3)))
                (local.set $pp (i32.add (local.get $pp) (local.get $fBytes)))
                (local.set $kp (i32.add (local.get $kp) (local.get $rowBytes)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $spike)))
            ;; rows 4g/4 … 4g/4 + 3 of dst ($g counts bytes of features: 16 per group)
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (v128.store (local.get $out) (local.get $acc0))
            (v128.store (i32.add (local.get $out) (local.get $rowBytes)) (local.get $acc1))
            (v128.store (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1))) (local.get $acc2))
            (v128.store (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))) (local.get $acc3))
            (local.set $g (i32.add (local.get $g) (i32.const 16)))
            (br $group)))
        (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $col))))

  ;; A fit for series on one electrode without its (n × m) position kernel in memory: the column
  ;; maxima and sums of the linear kernel as columnScaledExp gives them from $gauss's rows, and the
  ;; series factor w = ψᵀ·K (f × m) as seriesFactor gives it from that kernel, bit for bit. Samples
  ;; a (n × q) and bin centres bt (q × m) are over the widths, ψ is (n × f). A first pass forms each
  ;; kernel row for the maxima (unless $maxGiven: the caller wrote them, as for kdeColumnSums); the
  ;; second forms it again, shifts, exponentiates, adds it to the
  ;; column sums (partial sums of 256 rows) and scales it, $tile rows at a time into $rows
  ;; ($tile × m floats of scratch), then adds those rows' product into w. m is a multiple of 4;
  ;; expMax and partial are m floats of scratch; $flush as in columnScaledExp.
  (func (export "seriesGroundFactor") (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
        (param $psi i32) (param $f i32) (param $colMax i32) (param $colSum i32) (param $w i32)
        (param $expMax i32) (param $partial i32) (param $rows i32) (param $tile i32) (param $flush f32) (param $maxGiven i32)
    (local $i i32) (local $r i32) (local $t0 i32) (local $count i32) (local $rowBytes i32) (local $sampleBytes i32)
    (local $arow i32) (local $orow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (call $fill (local.get $w) (i32.mul (local.get $f) (local.get $rowBytes)) (v128.const f32x4 0 0 0 0))
    (if (i32.eqz (local.get $maxGiven)) (then (call $columnMaxima (local.get $a) (local.get $n) (local.get $q) (local.get $bt) (local.get $m)
      (local.get $c) (local.get $colMax) (local.get $rows))))
    (call $expRange (local.get $colMax) (local.get $expMax) (local.get $m))
    (local.set $i (i32.const 0))
    (local.set $arow (local.get $a))
    (block $tilesDone
      (loop $tileLoop
        (br_if $tilesDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $t0 (local.get $i))
        (local.set $count (i32.sub (local.get $n) (local.get $i)))
        (if (i32.gt_u (local.get $count) (local.get $tile)) (then (local.set $count (local.get $tile))))
        (local.set $orow (local.get $rows))
        (local.set $r (i32.const 0))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $count)))
            (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $orow) (i32.const 0))
            (call $scaledRowIntoSums (local.get $orow) (local.get $orow) (local.get $i) (local.get $n) (local.get $m)
              (local.get $colMax) (local.get $expMax) (local.get $partial) (local.get $colSum) (local.get $flush))
            (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
            (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $row)))
        (call $seriesFactorInto
          (i32.add (local.get $psi) (i32.mul (local.get $t0) (i32.shl (local.get $f) (i32.const 2))))
          (local.get $rows) (local.get $count) (local.get $m) (local.get $f) (local.get $w) (i32.const 1))
        (br $tileLoop))))

