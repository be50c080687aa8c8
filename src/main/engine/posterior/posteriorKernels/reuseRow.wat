;; The conditioning of a part of a row whose log likelihood has the bits of a part conditioned
;; before it (causalFilter.ts): the detector's continuous and fragmented non-local states read one
;; likelihood, so their e^(ll − max) are the same numbers and are computed once. A part of
;; posteriorKernels.wat, which includes it: the conventions are there.

  ;; u[k] = pred[k] · e[k] and returns mass0 + Σ u[k] added one term after the other, as
  ;; conditionRow would have: its e for this part, its product and its chain of sums. pred is
  ;; float32, e and u float64; an odd n leaves the last pair's second lane unused.
  (func (export "reuseRow") (param $e i32) (param $pred i32) (param $n i32) (param $u i32) (param $mass0 f64) (result f64)
    (local $k i32) (local $mass f64) (local $v v128)
    (local.set $mass (local.get $mass0))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $v (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pred))) (v128.load (local.get $e))))
        (local.set $mass (f64.add (local.get $mass) (f64x2.extract_lane 0 (local.get $v))))
        (if (i32.lt_s (i32.add (local.get $k) (i32.const 1)) (local.get $n))
          (then
            (v128.store (local.get $u) (local.get $v))
            (local.set $mass (f64.add (local.get $mass) (f64x2.extract_lane 1 (local.get $v)))))
          (else (v128.store64_lane 0 (local.get $u) (local.get $v))))
        (local.set $e (i32.add (local.get $e) (i32.const 16)))
        (local.set $pred (i32.add (local.get $pred) (i32.const 8)))
        (local.set $u (i32.add (local.get $u) (i32.const 16)))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pair)))
    (local.get $mass))

  ;; Whether the bytes [a, a + bytes) and [b, b + bytes) are the same, 16 at a time and the rest
  ;; one by one: two parts of a row of float32 compared as bits (−0 and 0 differ, a NaN is itself).
  (func (export "sameBytes") (param $a i32) (param $b i32) (param $bytes i32) (result i32)
    (local $end i32) (local $vectorEnd i32) (local $diff v128)
    (local.set $end (i32.add (local.get $a) (local.get $bytes)))
    (local.set $vectorEnd (i32.add (local.get $a) (i32.and (local.get $bytes) (i32.const -16))))
    (block $vectorsDone
      (loop $vector
        (br_if $vectorsDone (i32.ge_u (local.get $a) (local.get $vectorEnd)))
        (local.set $diff (v128.or (local.get $diff) (v128.xor (v128.load (local.get $a)) (v128.load (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $vector)))
    (if (v128.any_true (local.get $diff)) (then (return (i32.const 0))))
    (block $bytesDone
      (loop $byte
        (br_if $bytesDone (i32.ge_u (local.get $a) (local.get $end)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $byte)))
    (i32.const 1))
