/// A double-double number: the unevaluated sum `hi + lo` of two Doubles with `|lo| ≤ ulp(hi)/2`,
/// about 106 significant bits (Dekker, "A floating-point technique for extending the available
/// precision", Numer. Math. 18, 1971; the algorithms of Joldes, Muller & Popescu, "Tight and
/// rigorous error bounds for basic building blocks of double-word arithmetic", ACM TOMS 44(2),
/// 2017). Portable: products are made exact with Veltkamp's splitting, no FMA needed.
///
/// Error bounds, with u = 2⁻⁵³, barring overflow and underflow (magnitudes between about 2⁻⁹⁰⁰
/// and 2⁹⁰⁰): `+` and `−` are Joldes et al.'s accurate sum (Algorithm 6, relative error ≤ 3u²);
/// `*` and `/` are the classic Dekker forms, with relative errors of a small multiple of u² (not
/// proven here; what SEKit relies on is measured end to end against exact rational arithmetic,
/// see `CompositeLLRExactTests`).
///
/// Used where Loizou's LPC measures are ill-conditioned (``LPCMeasures``): on frames of digital
/// silence the LLR's denominator is ~1e-11 of the frame energy, and its rounding in Double decides
/// the frame value.
struct DoubleDouble: Sendable {
    var hi: Double
    var lo: Double

    init(_ value: Double) { (hi, lo) = (value, 0) }
    init(hi: Double, lo: Double) { (self.hi, self.lo) = (hi, lo) }

    static let zero = DoubleDouble(0), one = DoubleDouble(1)

    /// The nearest Double.
    var value: Double { hi + lo }

    /// Knuth's TwoSum: `s + e == a + b` exactly, `s = fl(a + b)`.
    @inline(__always) static func twoSum(_ a: Double, _ b: Double) -> (s: Double, e: Double) {
        let s = a + b, bb = s - a
        return (s, (a - (s - bb)) + (b - bb))
    }

    /// Dekker's FastTwoSum, exact when `|a| ≥ |b|` (or a = 0).
    @inline(__always) static func fastTwoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        return DoubleDouble(hi: s, lo: b - (s - a))
    }

    /// Veltkamp's splitter 2²⁷ + 1: `split(a)` gives `hi + lo == a` with 26 significant bits each.
    static let splitter = 134_217_729.0

    @inline(__always) static func split(_ a: Double) -> (hi: Double, lo: Double) {
        let t = splitter * a, hi = t - (t - a)
        return (hi, a - hi)
    }

    /// Dekker's TwoProduct from split operands: `p + e == a·b` exactly, `p = fl(a·b)`.
    @inline(__always) static func twoProduct(_ a: Double, _ ah: Double, _ al: Double,
                                             _ b: Double, _ bh: Double, _ bl: Double) -> (p: Double, e: Double) {
        let p = a * b
        return (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
    }

    @inline(__always) static func twoProduct(_ a: Double, _ b: Double) -> (p: Double, e: Double) {
        let (ah, al) = split(a), (bh, bl) = split(b)
        return twoProduct(a, ah, al, b, bh, bl)
    }

    static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let (s, e) = twoSum(a.hi, b.hi), (t, f) = twoSum(a.lo, b.lo)
        let u = fastTwoSum(s, e + t)
        return fastTwoSum(u.hi, u.lo + f)
    }

    static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(hi: -a.hi, lo: -a.lo) }
    static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

    static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let (p, e) = twoProduct(a.hi, b.hi)
        return fastTwoSum(p, e + (a.hi * b.lo + a.lo * b.hi))
    }

    static func / (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let q = a.hi / b.hi
        let r = a - b * DoubleDouble(q)
        return fastTwoSum(q, r.hi / b.hi)
    }

    static func += (a: inout DoubleDouble, b: DoubleDouble) { a = a + b }
}

/// The arithmetic ``LPCMeasures`` runs its recursion and quadratic forms in: Double, or
/// ``DoubleDouble`` for the composite's LLR.
protocol LPCScalar {
    static var zero: Self { get }
    static var one: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func / (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    /// The nearest Double.
    var double: Double { get }
}

extension Double: LPCScalar {
    static var one: Double { 1 }
}

extension DoubleDouble: LPCScalar {
    var double: Double { value }
}
