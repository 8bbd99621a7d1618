extension Int {
    /// A floating-point value rounded to the nearest whole number and clamped to `Int`'s range;
    /// NaN becomes 0. For sizes and positions an app or a file computed, where a trapping
    /// conversion would end the process.
    init(saturating value: Double) {
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= 9.223372036854775807e18 {
            self = .max
        } else if rounded <= -9.223372036854775808e18 {
            self = .min
        } else {
            self = Int(rounded)
        }
    }
}
