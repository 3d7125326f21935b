extension EngineWords {
    /// The French table, written like the shipped `fr.json`: the player is addressed as « tu », with no
    /// word that gives the player a gender, and French spacing before « : » and « ; ».
    static func french(_ key: Key) -> String {
        switch key {
        case .labelIncrement: "{element} : vers le haut"
        case .labelDecrement: "{element} : vers le bas"
        case .labelRotorNext: "rotor : suivant"
        case .labelRotorPrevious: "rotor : précédent"
        case .labelRotorItemNext: "élément du rotor : suivant"
        case .labelRotorItemPrevious: "élément du rotor : précédent"
        case .labelAction: "{element} : {action}"

        case .refusalAssistiveFirst:
            "l'écran de la technologie d'assistance est affiché ; signale d'abord son retour avec assistive active"
        case .refusalAssistiveShowing: "l'écran de la technologie d'assistance est affiché"
        case .refusalMagicTap: "le toucher magique ne fait rien ici"
        case .refusalEscape: "le geste d'échappement ne fait rien ici"
        case .refusalGestureOnScreen: "{action} ne fait rien sur l'écran {screen}"
        case .refusalNothingAnnounced: "rien n'a encore été annoncé"
        case .refusalNoElement: "aucun élément « {element} » sur l'écran {screen}"
        case .refusalMenuOpen: "le menu est déjà ouvert"
        case .refusalChapterRange: "le chapitre doit être compris entre 1 et {count}"
        case .refusalLevelRange: "le niveau doit être compris entre 1 et {count} dans le chapitre {chapter}"
        case .refusalLevelLocked: "le niveau {chapter}.{level} n'est pas encore déverrouillé"
        case .refusalNothingToActivate: "rien à activer ici"
        case .refusalNotTextField: "l'élément où tu te trouves n'est pas un champ de texte"
        case .refusalNoRotor: "l'élément où tu te trouves n'a pas de rotor"
        case .refusalNoActions: "l'élément où tu te trouves n'a pas d'actions personnalisées"
        case .refusalNotAdjustable: "l'élément où tu te trouves ne se règle pas"
        case .refusalActionIndex: "l'indice doit être compris entre 1 et {count}"
        case .refusalNoSuchAction: "{element} n'a pas d'action « {name} »"

        case .errorLineTooLong: "la ligne fait {length} octets ; la limite est de {limit}"
        case .errorStale: "l'état est passé à la génération {generation} (la commande attendait {expected})"
        case .errorUnsupportedProtocol: "ce moteur parle le protocole {version}, pas {requested}"
        case .errorSaveFailed: "la progression n'a pas pu être enregistrée ({location}) : {error} ; le jeu continue"
        case .errorNoWaitToCancel: "aucune attente sur l'horloge réelle n'a l'identifiant {target}"
        case .errorBatchWaitsOnRealClock:
            "un lot ne peut pas attendre sur l'horloge réelle, car il ne serait plus tout ou rien ; envoie l'attente seule"
        case .errorReadOnly:
            "tu suis cette partie en observateur : {command} ne t'appartient pas ; "
                + "demande la main avec hello et le rôle « controller » quand elle est libre"
        case .errorControlled:
            "un autre client mène la partie ; il peut passer la main avec hello et le rôle « observer », ou en partant"
        case .errorOverflow:
            "tu lis trop lentement : plus de {limit} octets t'attendaient, donc les événements de la partie "
                + "sont abandonnés jusqu'à ce que tu aies rattrapé ton retard (les réponses à tes propres "
                + "commandes sont gardées) ; l'état complet suit"
        case .errorTooManyClients: "cette partie a déjà {limit} clients ; réessaie quand l'un d'eux sera parti"
        case .attachedReadOnly:
            "un autre joueur mène cette partie et tu la suis ; ton prochain geste jouera quand la main sera libre"

        case .errorSaveLocked:
            "une autre partie utilise la sauvegarde ({location}) ; cette partie part de cette sauvegarde, mais en "
                + "lecture seule : sa progression ne sera pas enregistrée"
        case .errorSaveNewerFormat:
            "la sauvegarde ({location}) est au format {format}, d'une version plus récente du jeu ; elle reste "
                + "intacte et cette partie ne sera pas enregistrée"
        case .errorSaveUnreadableKept:
            "la sauvegarde ({location}) n'a pas pu être lue : {reason} ; une nouvelle partie commence et ne sera pas "
                + "enregistrée"
        case .errorSaveUnusable:
            "la sauvegarde ({location}) ne peut pas être protégée : {reason} ; cette partie ne sera pas enregistrée"
        case .errorSaveUnreadable:
            "la sauvegarde ({location}) n'a pas pu être lue : {reason} ; une nouvelle partie commence"
        case .errorSaveUnreadableHeld:
            "la sauvegarde ({location}) n'a pas pu être lue : {reason} ; une nouvelle partie commence ; le fichier "
                + "reste intact, car une autre partie le tient"
        case .errorSaveUnreadableMovedAside:
            "la sauvegarde ({location}) n'a pas pu être lue : {reason} ; une nouvelle partie commence et l'ancien "
                + "fichier a été gardé sous le nom {aside}"
        case .errorSaveUnreadableNotMovedAside:
            "la sauvegarde ({location}) n'a pas pu être lue : {reason} ; une nouvelle partie commence ; elle n'a pas "
                + "pu être mise de côté ({problem}), donc rien ne sera enregistré"

        case .errorBadSnapshot: "l'instantané ne peut pas être restauré : {reason}"
        case .snapshotForeign: "ce n'est pas un instantané au format {format} de ce moteur"
        case .snapshotIncomplete: "l'instantané est incomplet"
        case .snapshotAltered: "sa somme de contrôle ne correspond pas : il a été modifié"
        case .snapshotUnreadable: "son contenu est illisible"
        case .snapshotOtherEngine: "il vient du moteur {made} ; celui-ci est le moteur {engine}"
        case .snapshotOtherAdventure: "il appartient à l'aventure « {other} », pas à « {adventure} »"
        case .snapshotUnknownLevels: "il nomme des niveaux que cette aventure n'a pas"
        case .snapshotNoCurrentLevel: "son niveau en cours n'existe pas"
        case .snapshotNoScreen: "il n'a aucun écran"
        case .snapshotNegativeFocus: "une position du focus est négative"
        case .snapshotNoIntroPage: "une page d'introduction n'existe pas"
        case .snapshotNoChapter: "un chapitre n'existe pas"
        case .snapshotNoLevel: "un niveau n'existe pas"
        case .snapshotPuzzleMismatch: "l'état d'une énigme ne correspond pas à son niveau"
        case .snapshotOverlayAtBottom: "le menu ou l'écran d'assistance est au bas de la pile"

        case .decodeInvalidUTF8: "la ligne n'est pas en UTF-8 valide"
        case .decodeNotJSON: "JSON invalide : {problem} à l'octet {offset}"
        case .decodeNotAnObject: "une commande est un objet JSON, pas {found}"
        case .decodeUnknownCommand: "commande inconnue « {type} »"
        case .decodeMissingField: "il manque le champ obligatoire {field}"
        case .decodeWrongType: "{field} doit être {expected}, pas {found}"
        case .decodeBetween: "{field} doit être compris entre {lowest} et {highest}"
        case .decodeAtLeast: "{field} doit valoir au moins {lowest}"
        case .decodeAtMost: "{field} doit valoir au plus {highest}"
        case .decodeOneOf: "{field} doit valoir {choices}"
        case .decodeNoVersion: "{field} doit indiquer au moins une version"
        case .decodeActionTarget: "action demande un nom ou un indice"
        case .decodeInputTooLong: "text fait {length} caractères (points de code) ; la limite est de {limit}"
        case .decodeBatchTooLarge: "un lot contient au plus {limit} commandes, pas {count}"
        case .decodeBatchedNotAnObject: "une commande d'un lot est un objet JSON, pas {found}"
        case .decodeBatchedID: "une commande d'un lot ne porte pas d'id : l'id du lot est son replyTo"
        case .decodeBatchedForbidden: "un lot ne peut contenir ni hello, ni restore, ni cancel, ni un autre lot"
        case .decodeInBatch: "commands[{index}] : {message}"
        case .alternative: "{first} ou {second}"

        case .valueNull: "la valeur null"
        case .valueNullType: "la valeur null"
        case .valueBoolean: "un booléen"
        case .valueNumber: "un nombre"
        case .valueString: "une chaîne"
        case .valueArray: "un tableau"
        case .valueObject: "un objet"
        case .valueInteger: "un entier"
        case .valueStringOrInteger: "une chaîne ou un entier"
        case .valueArrayOfObjects: "un tableau d'objets"
        case .valueArrayOfStrings: "un tableau de chaînes"
        case .valueObjectOfStrings: "un objet de chaînes"
        case .valueVersionPair: "une paire [majeur, mineur]"
        case .valueVersions: "un entier, une paire [majeur, mineur], une liste de paires ou un objet {range}"
        case .valueItems: "une liste de longueur {count}"

        case .jsonUnexpectedEnd: "fin inattendue des données"
        case .jsonUnexpectedCharacter: "caractère inattendu"
        case .jsonTrailingData: "données en trop après la valeur"
        case .jsonExpectedKey: "une clé entre guillemets était attendue"
        case .jsonExpectedColon: "« : » était attendu"
        case .jsonExpectedCommaOrBrace: "« , » ou « } » était attendu"
        case .jsonExpectedCommaOrBracket: "« , » ou « ] » était attendu"
        case .jsonControlCharacter: "caractère de contrôle dans une chaîne"
        case .jsonInvalidEscape: "séquence d'échappement invalide"
        case .jsonInvalidUnicodeEscape: "séquence \\u invalide"
        case .jsonUnterminatedString: "chaîne sans guillemet de fin"
        case .jsonInvalidNumber: "nombre invalide"
        case .jsonNumberOutOfRange: "nombre hors limites"
        case .jsonTooDeep: "imbrication de plus de {limit} niveaux"
        case .jsonLoneLowSurrogate: "demi-codet bas isolé dans une séquence \\u"
        case .jsonLoneHighSurrogate: "demi-codet haut isolé dans une séquence \\u"
        case .jsonUnpairedHighSurrogate: "demi-codet haut que ne suit aucun demi-codet bas"
        case .jsonDuplicateKey: "clé « {key} » en double"
        // MARK: Snapshot fields a restore refuses (hardening)
        case .snapshotField: "{field} : {problem}"
        case .snapshotOutOfRange: "la valeur est hors limites"
        case .snapshotImpossible: "le jeu ne peut jamais être dans cet état"
        case .snapshotLevelLocked: "la progression de l'instantané n'a pas débloqué ce niveau"
        case .snapshotTorchOut: "la torche de ce niveau chronométré serait déjà éteinte"

        // MARK: Work one line may ask for (hardening)
        case .errorBatchTooMuchTime:
            "les attentes du lot font {total} ms en tout ; une ligne peut laisser passer au plus {limit} ms"
        case .errorTooManyEvents: "le lot enverrait plus de {limit} événements ; rien n'en a été fait"

        // MARK: Misleading messages made precise (hardening)
        case .snapshotOtherFormat: "il est au format {made} ; ce moteur lit le format {format}"
        }
    }
}
