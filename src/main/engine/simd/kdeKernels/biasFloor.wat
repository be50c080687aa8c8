;; The strategies' epilogue: add a row's offset and the bin's bias, then the floor ($offsetBiasFloor
;; for the series' rows, biasFloor exported for the op graph's order).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

  ;; row = max((row + off) + bias, floor), bias a vector of count floats, in place: the series'
  ;; epilogue in the op graph's order (add the row's offset, add the bin's bias, the floor).
  (func $offsetBiasFloor (param $row i32) (param $off f32) (param $bias i32) (param $floor f32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $ov v128) (local $fv v128)
    (local.set $ov (f32x4.splat (local.get $off)))
    (local.set $fv (f32x4.splat (local.get $floor)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.max
            (f32x4.add
              (f32x4.add (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $ov))
              (v128.load (i32.add (local.get $bias) (local.get $at))))
            (local.get $fv)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.max
            (f32.add
              (f32.add (f32.load (i32.add (local.get $row) (local.get $at))) (local.get $off))
              (f32.load (i32.add (local.get $bias) (local.get $at))))
            (local.get $floor)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; dst = max(src + bias, floor) for n rows of m, bias m floats: the strategies' epilogue in the op
  ;; graph's order (add the bin's bias, then the floor), one pass where tfjs's broadcasting maximum
  ;; alone costs several times an add.
  (func (export "biasFloor") (param $src i32) (param $bias i32) (param $n i32) (param $m i32) (param $floor f32) (param $dst i32)
    (local $i i32) (local $at i32) (local $vectorEnd i32) (local $end i32) (local $fv v128)
    (local.set $fv (f32x4.splat (local.get $floor)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $m) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $m) (i32.const 2)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.const 0))
        (block $vectorsDone
          (loop $next
            (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
            (v128.store (i32.add (local.get $dst) (local.get $at))
              (f32x4.max
                (f32x4.add (v128.load (i32.add (local.get $src) (local.get $at))) (v128.load (i32.add (local.get $bias) (local.get $at))))
                (local.get $fv)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $next)))
        (block $lanesDone
          (loop $next
            (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
            (f32.store (i32.add (local.get $dst) (local.get $at))
              (f32.max
                (f32.add (f32.load (i32.add (local.get $src) (local.get $at))) (f32.load (i32.add (local.get $bias) (local.get $at))))
                (local.get $floor)))
            (local.set $at (i32.add (local.get $at) (i32.const 4)))
            (br $next)))
        (local.set $src (i32.add (local.get $src) (local.get $end)))
        (local.set $dst (i32.add (local.get $dst) (local.get $end)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

