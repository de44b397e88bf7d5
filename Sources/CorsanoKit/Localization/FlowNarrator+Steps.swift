extension FlowNarrator {
    /// The screen for a `step` event: the SDK's step names of both flows (seeds: "Step values",
    /// "Flow reference").
    mutating func step(_ step: FlowStep) -> [TextBlock] {
        let l = localizer
        if let p = step.position { position = p.rawValue }
        switch step.screen {
        case .wearingOpt(let screen): return wearingStep(screen, step)
        case .bpInit(.needsCuffPairing):
            return [.title(l[.bpPairingTitle]), .text(l[.bpPairingBody], tone: .plain)]
        case .bpInit(.instructions):
            var blocks: [TextBlock] = [.title(l[.bpInstructionsTitle]), .text(l[.bpInstructionsBody], tone: .plain)]
            if step.preparation ?? includePreparation {
                blocks += [.text(l[.preparationTitle], tone: .plain),
                           .list([l[.bpPrepCuffFit], l[.bpPrepArmPosition], l[.bpPrepSitAndRest]], numbered: false)]
            }
            return blocks
        case .bpInit(.measuring):
            let index = step.index ?? measurementsThisAttempt + 1
            let attempt = step.attempt ?? attemptsFinished + 1
            return [.title(l[.bpMeasuringTitle, index, attempt]), .text(l[.bpPressStart], tone: .action),
                    .text(l[.bpWaitingForCuff], tone: .note)]
        case .bpInit(.measurementRecorded):
            return [.text(l[.bpMeasurementRecorded], tone: .plain)]
        case .bpInit(.retryPrompt):
            return [.title(l[.retryTitle]), .text(l[.bpRetryBody], tone: .plain)]
        case .bpInit(.finalSuccess):
            // The body says the monitoring plan is restored: never when it was not.
            return [.title(l[.bpSuccessTitle])] + (planLeftSwitched ? [] : [.text(l[.bpSuccessBody], tone: .success)])
        case .bpInit(.finalFailure):
            return [.title(l[.bpSummaryTitle])] + (planLeftSwitched ? [] : [.text(l[.bpSummaryBody], tone: .plain)])
        }
    }

    func wearingStep(_ screen: WearingOptimizationStep, _ step: FlowStep) -> [TextBlock] {
        let l = localizer
        switch screen {
        case .preparation:
            return [.title(l[.preparationTitle]),
                    .list([l[.woPrepSkinHairWrist], l[.woPrepStrapTightness], l[.woPrepPlacement]], numbered: true)]
        case .armedPreparing:
            // The flow names the position and its instruction steps (2 supine, 3 seated); without
            // them the seed's two reference cards stand in.
            var blocks: [TextBlock] = [.title(l[.woInstructionsTitle]), .text(l[.woRemainStill], tone: .action),
                                       .text(l[.woInstructionsBody], tone: .plain)]
            guard position != nil || step.instructions != nil else {
                return blocks + [.list([l[.woSittingCard], l[.woLyingCard]], numbered: false)]
            }
            let steps = step.instructions?.map(instructionStep)
            blocks += [.text(l[.positionHeading, l.position(position)], tone: .plain),
                       .list(steps ?? l.positionSteps(position), numbered: true)]
            return blocks
        case .running:
            return [.title(l[.woRunningTitle]), .text(l[.woRunningBody], tone: .plain)]
        case .retryPrompt:
            return [.title(l[.retryTitle]), .text(l[.woRetryBody], tone: .plain)]
        case .finalSuccess:
            return [.title(l[.woSuccessTitle])]
        case .finalFailure:
            return [.title(l[.woFailureTitle])]
        }
    }

    /// One instruction step as the wearing flow names it (`BraceletPosition.instructionSteps`).
    func instructionStep(_ name: String) -> String {
        switch name {
        case "sitUpright": return localizer[.seatedStep1]
        case "forearmOnDesk": return localizer[.seatedStep2]
        case "handFlatOnDesk": return localizer[.seatedStep3]
        case "lieOnBack": return localizer[.supineStep1]
        case "armAlongsideBody": return localizer[.supineStep2]
        default: return name
        }
    }
}
