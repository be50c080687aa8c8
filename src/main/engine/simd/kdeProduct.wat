;; The packed product of the engine's compensated fold (see kdeKernels.wat for the conventions: byte
;; offsets into the backend's heap, imported as memory). A module of its own because its
;; multiply-adds are relaxed SIMD's f32x4.relaxed_madd, a fused multiply-add where the processor
;; has one: on x86 cores whose adders and multipliers share ports (Intel's), a separate multiply
;; and add take twice the issue slots. Where relaxed SIMD is not available the engine installs the
;; same text with every relaxed_madd(a, b, c) written as c + a·b (scripts/kernelSource.ts), which
;; is one of the results relaxed_madd itself may give, so both builds compute the same sums.
(module
  (import "env" "memory" (memory 0))

  ;; One row's eight columns of packedProduct's result: dst = α·prev + β·(lo, hi), only the first
  ;; $cols columns when fewer than eight are left (through $scratch, eight floats); $prev 0: none.
  (func $storeTile (param $dst i32) (param $prev i32) (param $lo v128) (param $hi v128) (param $cols i32)
    (param $alpha f32) (param $beta f32) (param $scratch i32)
    (local $c i32) (local $v f32)
    (local.set $lo (f32x4.mul (f32x4.splat (local.get $beta)) (local.get $lo)))
    (local.set $hi (f32x4.mul (f32x4.splat (local.get $beta)) (local.get $hi)))
    (if (i32.ge_u (local.get $cols) (i32.const 8))
      (then
        (if (local.get $prev)
          (then
            (local.set $lo (f32x4.add (f32x4.mul (f32x4.splat (local.get $alpha)) (v128.load (local.get $prev))) (local.get $lo)))
            (local.set $hi (f32x4.add (f32x4.mul (f32x4.splat (local.get $alpha)) (v128.load offset=16 (local.get $prev))) (local.get $hi)))))
        (v128.store (local.get $dst) (local.get $lo))
        (v128.store offset=16 (local.get $dst) (local.get $hi))
        (return)))
    (v128.store (local.get $scratch) (local.get $lo))
    (v128.store offset=16 (local.get $scratch) (local.get $hi))
    (block $colsDone
      (loop $col
        (br_if $colsDone (i32.ge_u (local.get $c) (local.get $cols)))
        (local.set $v (f32.load (i32.add (local.get $scratch) (i32.shl (local.get $c) (i32.const 2)))))
        (if (local.get $prev)
          (then
            (local.set $v (f32.add (f32.mul (local.get $alpha) (f32.load (i32.add (local.get $prev) (i32.shl (local.get $c) (i32.const 2))))) (local.get $v)))))
        (f32.store (i32.add (local.get $dst) (i32.shl (local.get $c) (i32.const 2))) (local.get $v))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $col))))

  ;; dst (m × n) = α·prev + β·a·b, a (m × k) row by row, b (k × n) packed by packPanels, k ≥ 1; prev
  ;; (m × n) or 0 for none. Per panel of eight columns, four rows at a time keep eight independent sums
  ;; (a row's four splats against the panel's two vectors per step of k), then the rows left one at a
  ;; time. The panel (32·k bytes) stays in cache over all the row groups. Each sum runs over k in order.
  ;; With $flags (0: every panel stored), a panel flagged 0 is all zeros and was not stored: its
  ;; columns are α·prev (or 0) without a product.
  (func (export "packedProduct") (param $a i32) (param $packed i32) (param $flags i32) (param $m i32) (param $k i32) (param $n i32)
    (param $prev i32) (param $alpha f32) (param $beta f32) (param $dst i32) (param $scratch i32)
    (local $p i32) (local $panels i32) (local $panelBytes i32) (local $cols i32) (local $i i32) (local $panelAt i32)
    (local $rowA i32) (local $rowA2 i32) (local $rowA3 i32) (local $rowC i32)
    (local $pa i32) (local $pb i32) (local $end i32) (local $at i32) (local $prevAt i32)
    (local $b0 v128) (local $b1 v128) (local $s v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local.set $panels (i32.shr_u (i32.add (local.get $n) (i32.const 7)) (i32.const 3)))
    (local.set $panelBytes (i32.shl (local.get $k) (i32.const 5)))
    (local.set $rowA (i32.shl (local.get $k) (i32.const 2)))
    (local.set $rowA2 (i32.shl (local.get $k) (i32.const 3)))
    (local.set $rowA3 (i32.mul (local.get $k) (i32.const 12)))
    (local.set $rowC (i32.shl (local.get $n) (i32.const 2)))
    (local.set $panelAt (local.get $packed))
    (block $panelsDone
      (loop $panel
        (br_if $panelsDone (i32.ge_u (local.get $p) (local.get $panels)))
        (local.set $cols (i32.sub (local.get $n) (i32.shl (local.get $p) (i32.const 3))))
        (local.set $i (i32.const 0))
        (if (local.get $flags)
          (then
            (if (i32.eqz (i32.load (i32.add (local.get $flags) (i32.shl (local.get $p) (i32.const 2)))))
              (then
                (block $emptyDone
                  (loop $empty
                    (br_if $emptyDone (i32.ge_u (local.get $i) (local.get $m)))
                    (local.set $at (i32.add (i32.mul (local.get $i) (local.get $rowC)) (i32.shl (local.get $p) (i32.const 5))))
                    (call $storeTile (i32.add (local.get $dst) (local.get $at))
                      (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev))
                      (v128.const f32x4 0 0 0 0) (v128.const f32x4 0 0 0 0) (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $empty)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $panel)))))
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $m)))
            (local.set $c00 (v128.const f32x4 0 0 0 0))
            (local.set $c01 (v128.const f32x4 0 0 0 0))
            (local.set $c10 (v128.const f32x4 0 0 0 0))
            (local.set $c11 (v128.const f32x4 0 0 0 0))
            (local.set $c20 (v128.const f32x4 0 0 0 0))
            (local.set $c21 (v128.const f32x4 0 0 0 0))
            (local.set $c30 (v128.const f32x4 0 0 0 0))
            (local.set $c31 (v128.const f32x4 0 0 0 0))
            (local.set $pa (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $rowA))))
            (local.set $pb (local.get $panelAt))
            (local.set $end (i32.add (local.get $pb) (local.get $panelBytes)))
            (loop $step
              (local.set $b0 (v128.load (local.get $pb)))
              (local.set $b1 (v128.load offset=16 (local.get $pb)))
              (local.set $s (v128.load32_splat (local.get $pa)))
              (local.set $c00 (f32x4.relaxed_madd (local.get $s) (local.get $b0) (local.get $c00)))
              (local.set $c01 (f32x4.relaxed_madd (local.get $s) (local.get $b1) (local.get $c01)))
              (local.set $s (v128.load32_splat (i32.add (local.get $pa) (local.get $rowA))))
              (local.set $c10 (f32x4.relaxed_madd (local.get $s) (local.get $b0) (local.get $c10)))
              (local.set $c11 (f32x4.relaxed_madd (local.get $s) (local.get $b1) (local.get $c11)))
              (local.set $s (v128.load32_splat (i32.add (local.get $pa) (local.get $rowA2))))
              (local.set $c20 (f32x4.relaxed_madd (local.get $s) (local.get $b0) (local.get $c20)))
              (local.set $c21 (f32x4.relaxed_madd (local.get $s) (local.get $b1) (local.get $c21)))
              (local.set $s (v128.load32_splat (i32.add (local.get $pa) (local.get $rowA3))))
              (local.set $c30 (f32x4.relaxed_madd (local.get $s) (local.get $b0) (local.get $c30)))
              (local.set $c31 (f32x4.relaxed_madd (local.get $s) (local.get $b1) (local.get $c31)))
              (local.set $pa (i32.add (local.get $pa) (i32.const 4)))
              (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
              (br_if $step (i32.lt_u (local.get $pb) (local.get $end))))
            (local.set $at (i32.add (i32.mul (local.get $i) (local.get $rowC)) (i32.shl (local.get $p) (i32.const 5))))
            (local.set $prevAt (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev)))
            (call $storeTile (i32.add (local.get $dst) (local.get $at)) (local.get $prevAt) (local.get $c00) (local.get $c01)
              (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
            (local.set $at (i32.add (local.get $at) (local.get $rowC)))
            (local.set $prevAt (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev)))
            (call $storeTile (i32.add (local.get $dst) (local.get $at)) (local.get $prevAt) (local.get $c10) (local.get $c11)
              (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
            (local.set $at (i32.add (local.get $at) (local.get $rowC)))
            (local.set $prevAt (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev)))
            (call $storeTile (i32.add (local.get $dst) (local.get $at)) (local.get $prevAt) (local.get $c20) (local.get $c21)
              (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
            (local.set $at (i32.add (local.get $at) (local.get $rowC)))
            (local.set $prevAt (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev)))
            (call $storeTile (i32.add (local.get $dst) (local.get $at)) (local.get $prevAt) (local.get $c30) (local.get $c31)
              (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $quad)))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $m)))
            (local.set $c00 (v128.const f32x4 0 0 0 0))
            (local.set $c01 (v128.const f32x4 0 0 0 0))
            (local.set $pa (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $rowA))))
            (local.set $pb (local.get $panelAt))
            (local.set $end (i32.add (local.get $pb) (local.get $panelBytes)))
            (loop $rowStep
              (local.set $s (v128.load32_splat (local.get $pa)))
              (local.set $c00 (f32x4.relaxed_madd (local.get $s) (v128.load (local.get $pb)) (local.get $c00)))
              (local.set $c01 (f32x4.relaxed_madd (local.get $s) (v128.load offset=16 (local.get $pb)) (local.get $c01)))
              (local.set $pa (i32.add (local.get $pa) (i32.const 4)))
              (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
              (br_if $rowStep (i32.lt_u (local.get $pb) (local.get $end))))
            (local.set $at (i32.add (i32.mul (local.get $i) (local.get $rowC)) (i32.shl (local.get $p) (i32.const 5))))
            (local.set $prevAt (select (i32.add (local.get $prev) (local.get $at)) (i32.const 0) (local.get $prev)))
            (call $storeTile (i32.add (local.get $dst) (local.get $at)) (local.get $prevAt) (local.get $c00) (local.get $c01)
              (local.get $cols) (local.get $alpha) (local.get $beta) (local.get $scratch))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $row)))
        (local.set $panelAt (i32.add (local.get $panelAt) (local.get $panelBytes)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $panel))))
)
