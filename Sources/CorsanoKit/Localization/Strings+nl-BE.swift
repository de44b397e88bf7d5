extension StringTables {
    /// Flemish (Dutch, Belgium). Leaflet terms: systolisch, diastolisch, polsslag, manchet.
    /// Only where Flemish usage differs from Netherlands Dutch; every other key falls back to `nl`.
    static func nlBE(_ key: L10nKey) -> String? {
        switch key {
        case .bpPairingBody: return "Er is geen bloeddrukmanchet gekoppeld. Koppel een manchet om voort te gaan."
        case .bpInstructionsTitle: return "Voor u begint"
        case .bpInstructionsBody: return "De armband wordt gekalibreerd met uw bloeddrukmeter met manchet. U meet twee keer met de manchet, soms een derde keer. Elke meting duurt ongeveer 40 seconden."
        case .bpPrepCuffFit: return "Manchet aanbrengen: doe de manchet goed aansluitend rond uw blote bovenarm, ongeveer 2 cm boven de elleboog."
        case .bpPrepArmPosition: return "Houding van de arm: leg uw arm op een tafel, met de manchet ter hoogte van het hart."
        case .bpPrepSitAndRest: return "Zitten en rusten: zit rechtop met uw rug gesteund en uw voeten plat op de grond. Rust 5 minuten en spreek niet tijdens de meting."
        case .bpPressStart: return "Druk op START op het bloeddruktoestel."
        case .promptTypedReading: return "Typ de meetwaarde als systolisch/diastolisch polsslag (bijvoorbeeld 120/80 72): "
        case .measurementLine: return "Systolisch {1} mmHg, diastolisch {2} mmHg, polsslag {3} slagen/min"
        case .readingShort: return "{1}/{2} mmHg, polsslag {3} slagen/min"
        case .readingShortNoPulse: return "{1}/{2} mmHg, geen polsslag"
        case .bpAttemptAccepted: return "Poging {1}: de armband heeft de kalibratie aanvaard."
        case .bpAttemptRejected: return "Poging {1}: de armband heeft de kalibratie niet aanvaard."
        case .bpRetryBody: return "De armband heeft deze metingen niet aanvaard. Rust even, controleer of de manchet goed zit en meet opnieuw."
        case .verdictAccepted: return "aanvaard"
        case .verdictRejected: return "niet aanvaard"
        case .woPrepSkinHairWrist: return "Huidskleur, haardichtheid en pols: kies uw huidskleur, de haardichtheid op uw pols en de pols waaraan u de armband draagt."
        case .woPrepStrapTightness: return "Spanning van het bandje: sluit het bandje zo dat de armband stevig zit zonder te knellen; hij mag niet verschuiven."
        case .woRemainStill: return "Blijf 1 minuut stilzitten of stilliggen."
        case .woInstructionsBody: return "De optimalisatie duurt ongeveer 2 minuten als u stilzit, tot 4 minuten als u beweegt."
        case .woSittingCard: return "Zittend: zit rechtop met uw onderarm op een tafel."
        case .woLyingCard: return "Liggend: lig op uw rug met uw armen ontspannen naast uw lichaam."
        case .woRunningBody: return "Blijf stil. De armband meldt om de 5 seconden de voortgang."
        case .seatedStep2: return "Leg uw onderarm op het bureau."
        case .seatedStep3: return "Leg uw hand plat op het bureau, handpalm naar beneden, en houd ze stil."
        case .supineStep1: return "Ga op uw rug liggen."
        case .supineStep2: return "Houd uw armen ontspannen en stil naast uw lichaam."
        case .droppedIncomplete: return "Meetwaarde van de manchet genegeerd, zonder polsslag: {1}"
        case .errorTypedReading: return "Niet begrepen. Typ systolisch/diastolisch polsslag, bijvoorbeeld 120/80 72."
        case .fieldPulse: return "Polsslag"
        default: return nil
        }
    }
}
