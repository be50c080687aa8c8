;; Adds blocks of spike terms into the float64 likelihood: the one step of a predict that runs on
;; the engine's main thread, for every term of every electrode, in a fixed order (predict.ts,
;; addTermsToRows, is the definition and the test's reference). Plain JavaScript takes ~3.3 ns a
;; term; two float64 lanes at a time, with the floor test as a mask, about a third of that. A module
;; of its own with its own memory: the likelihood lives there (likelihoodSum.ts), not in a backend.
(module
  (memory (export "memory") 1)

  ;; For each of the n spikes k: ll[rows[k]·nBins + p] += v + (v ≤ floor ? correction : zero),
  ;; v = values[k·nBins + p] as float64, p = 0 … nBins − 1; returns how many v were ≤ floor.
  ;; `zero` is 0·correction as JavaScript forms it (a signed zero), so every sum has the bits of the
  ;; definition's ll + (v + onFloor·correction).
  (func (export "addTermsToRows") (param $ll i32) (param $values i32) (param $rows i32) (param $n i32) (param $nBins i32)
    (param $floor f64) (param $correction f64) (param $zero f64) (result i32)
    (local $k i32) (local $out i32) (local $src i32) (local $p i32) (local $vectorEnd i32) (local $floored i32)
    (local $v v128) (local $lo v128) (local $hi v128) (local $m v128) (local $count v128)
    (local $fv v128) (local $cv v128) (local $zv v128) (local $d f64)
    (local.set $fv (f64x2.splat (local.get $floor)))
    (local.set $cv (f64x2.splat (local.get $correction)))
    (local.set $zv (f64x2.splat (local.get $zero)))
    (local.set $vectorEnd (i32.and (local.get $nBins) (i32.const -4)))
    (local.set $src (local.get $values))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $out
          (i32.add (local.get $ll)
            (i32.shl (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2)))) (local.get $nBins)) (i32.const 3))))
        (local.set $p (i32.const 0))
        ;; four terms: two float64 pairs, each mask counted (a true lane is −1) and selecting the correction
        (block $vectorsDone
          (loop $vector
            (br_if $vectorsDone (i32.ge_u (local.get $p) (local.get $vectorEnd)))
            (local.set $v (v128.load (local.get $src)))
            (local.set $lo (f64x2.promote_low_f32x4 (local.get $v)))
            (local.set $hi (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
            (local.set $m (f64x2.le (local.get $lo) (local.get $fv)))
            (local.set $count (i64x2.sub (local.get $count) (local.get $m)))
            (v128.store (local.get $out)
              (f64x2.add (v128.load (local.get $out)) (f64x2.add (local.get $lo) (v128.bitselect (local.get $cv) (local.get $zv) (local.get $m)))))
            (local.set $m (f64x2.le (local.get $hi) (local.get $fv)))
            (local.set $count (i64x2.sub (local.get $count) (local.get $m)))
            (v128.store offset=16 (local.get $out)
              (f64x2.add (v128.load offset=16 (local.get $out)) (f64x2.add (local.get $hi) (v128.bitselect (local.get $cv) (local.get $zv) (local.get $m)))))
            (local.set $src (i32.add (local.get $src) (i32.const 16)))
            (local.set $out (i32.add (local.get $out) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $vector)))
        ;; the 0–3 terms left, one at a time
        (block $lanesDone
          (loop $lane
            (br_if $lanesDone (i32.ge_u (local.get $p) (local.get $nBins)))
            (local.set $d (f64.promote_f32 (f32.load (local.get $src))))
            (if (f64.le (local.get $d) (local.get $floor))
              (then
                (local.set $floored (i32.add (local.get $floored) (i32.const 1)))
                (local.set $d (f64.add (local.get $d) (local.get $correction))))
              (else (local.set $d (f64.add (local.get $d) (local.get $zero)))))
            (f64.store (local.get $out) (f64.add (f64.load (local.get $out)) (local.get $d)))
            (local.set $src (i32.add (local.get $src) (i32.const 4)))
            (local.set $out (i32.add (local.get $out) (i32.const 8)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $lane)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row)))
    (i32.add (local.get $floored)
      (i32.wrap_i64 (i64.add (i64x2.extract_lane 0 (local.get $count)) (i64x2.extract_lane 1 (local.get $count))))))
)
