import CorsanoKit
import Testing

/// The rule (BraceletPosition(gravity:)): |z| the largest component = seated, else supine.
@Suite struct PositionInferenceTests {
    // Forearm on the desk, hand flat, display up: gravity along the display normal (z).
    @Test(arguments: [GravityVector(x: 0.05, y: -0.1, z: -0.99), GravityVector(x: 0.3, y: 0.2, z: 0.9),
                      GravityVector(x: 0, y: 0, z: 1)])
    func seatedVector(_ g: GravityVector) {
        #expect(BraceletPosition(gravity: g) == .seated)
    }

    // Lying on the back, arm alongside the body: gravity across the wrist or along the forearm.
    @Test(arguments: [GravityVector(x: 0.1, y: 0.98, z: 0.15), GravityVector(x: -0.98, y: 0.12, z: 0.1),
                      GravityVector(x: -0.2, y: -0.9, z: 0.35)])
    func supineVector(_ g: GravityVector) {
        #expect(BraceletPosition(gravity: g) == .supine)
    }

    @Test func instructionStepsSupineTwoSeatedThree() {
        #expect(BraceletPosition.supine.instructionSteps == ["lieOnBack", "armAlongsideBody"])
        #expect(BraceletPosition.seated.instructionSteps == ["sitUpright", "forearmOnDesk", "handFlatOnDesk"])
    }
}
