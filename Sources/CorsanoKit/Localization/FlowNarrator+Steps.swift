extension FlowNarrator {
    /// The screen for a `step` event: the SDK's step names of both flows (seeds: "Step values",
    /// "Flow reference").
    mutating func step(_ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        let name = event["step"]?.stringValue ?? ""
        if let p = event["position"]?.stringValue { position = p }
        if event.flow == "wearing-opt" { return wearingStep(name) }
        switch name {
        case "needsCuffPairing":
            return [.title(l[.bpPairingTitle]), .text(l[.bpPairingBody], tone: .plain)]
        case "instructions":
            var blocks: [TextBlock] = [.title(l[.bpInstructionsTitle]), .text(l[.bpInstructionsBody], tone: .plain)]
            if includePreparation {
                blocks += [.text(l[.preparationTitle], tone: .plain),
                           .list([l[.bpPrepCuffFit], l[.bpPrepArmPosition], l[.bpPrepSitAndRest]], numbered: false)]
            }
            return blocks
        case "measuring":
            let index = event["index"]?.intValue ?? measurementsThisAttempt + 1
            let attempt = event["attempt"]?.intValue ?? attemptsFinished + 1
            return [.title(l[.bpMeasuringTitle, index, attempt]), .text(l[.bpPressStart], tone: .action)]
        case "measurementRecorded":
            return [.text(l[.bpMeasurementRecorded], tone: .plain)]
        case "retryPrompt":
            return [.title(l[.retryTitle]), .text(l[.bpRetryBody], tone: .plain)]
        case "finalSuccess":
            return [.title(l[.bpSuccessTitle]), .text(l[.bpSuccessBody], tone: .success)]
        case "finalFailure":
            return [.title(l[.bpSummaryTitle]), .text(l[.bpSummaryBody], tone: .plain)]
        default:
            return []
        }
    }

    func wearingStep(_ name: String) -> [TextBlock] {
        let l = localizer
        switch name {
        case "preparation":
            return [.title(l[.preparationTitle]),
                    .list([l[.woPrepSkinHairWrist], l[.woPrepStrapTightness], l[.woPrepPlacement]], numbered: true)]
        case "armedPreparing":
            return [.title(l[.woInstructionsTitle]), .text(l[.woRemainStill], tone: .action),
                    .text(l[.woInstructionsBody], tone: .plain), .list([l[.woSittingCard], l[.woLyingCard]], numbered: false)]
        case "running":
            return [.title(l[.woRunningTitle]), .text(l[.woRunningBody], tone: .plain)]
        case "retryPrompt":
            return [.title(l[.retryTitle]), .text(l[.woRetryBody], tone: .plain),
                    .text(l[.positionHeading, l.position(position)], tone: .plain),
                    .list(l.positionSteps(position), numbered: true)]
        case "finalSuccess":
            return [.title(l[.woSuccessTitle])]
        case "finalFailure":
            return [.title(l[.woFailureTitle])]
        default:
            return []
        }
    }
}
