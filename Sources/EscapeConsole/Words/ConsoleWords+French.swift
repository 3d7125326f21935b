// SPDX-License-Identifier: Apache-2.0
extension ConsoleWords {
    /// The French table, written like the shipped `fr.json`: the player is addressed as « tu », with no
    /// word that gives the player a gender, and French spacing before « : », « ; » and « ? ».
    static func french(_ key: Key) -> String {
        switch key {
        case .welcome: "Tape aide pour la liste des commandes, ou q pour quitter."
        case .timePasses: "Le temps passe."
        case .waiting: "Tu attends {time}. Appuie sur une touche pour arrêter d'attendre."
        case .waitStopped: "Tu as arrêté d'attendre."
        case .goodbye: "Au revoir."
        case .watching: "Tu suis cette partie ; un autre joueur la mène."
        case .controlFree: "La main est libre : ton prochain geste joue la partie."
        case .playing: "Tu mènes la partie maintenant."
        case .escaped: "Te voilà dehors : la partie est terminée."
        case .correct: "Bonne réponse."
        case .wrong: "Mauvaise réponse."
        case .tryingRight: "Essai {code} : réussi."
        case .tryingWrong: "Essai {code} : raté."
        case .error: "{message}"
        case .notAdjustable: "Cet élément ne tourne pas ; + et - tournent les éléments dits réglables."
        case .noSuchChapter:
            "Il n'y a pas de chapitre {chapter} ; le jeu en a {count}. Tape niveau, un chapitre et un niveau, par exemple niveau 2 1."
        case .noSuchLevel:
            "Le chapitre {chapter} n'a pas de niveau {level}. Tape niveau, un chapitre et un niveau, par exemple niveau 2 1."
        case .undoneWhat: "Annulé : {command}."
        case .hint: "Indice : {text}"
        case .anotherHintReady: "Un autre indice est prêt aussi."
        case .hintWord: "indice"
        case .lastItem: "C'est le dernier élément."
        case .firstItem: "C'est le premier élément."
        case .lineTooLong: "Cette ligne fait {length} octets ; les commandes et les réponses sont courtes."

        case .levelsSolvedOne: "{count} niveau résolu sur {total}."
        case .levelsSolvedMany: "{count} niveaux résolus sur {total}."
        case .whereYouAre: "Chapitre {chapter}, niveau {level}. {solved}"
        case .progress: "Progression : {solved}"

        case .headingOne: "{title}, 1 élément :"
        case .headingMany: "{title}, {count} éléments :"
        case .position: "{index} sur {count}"
        case .focus: "{position} : {description}"
        case .typeYourAnswer: "Tape ta réponse et appuie sur Entrée."
        case .empty: "vide"
        case .withRotor: "avec un rotor"
        case .withActions: "avec des actions"
        case .roleButton: "bouton"
        case .roleHeading: "titre"
        case .roleTextField: "champ de texte"
        case .roleAdjustable: "réglable"
        case .stateUnavailable: "indisponible"
        case .stateSelected: "sélectionné"
        case .nothingOnScreen: "Il n'y a encore rien à l'écran."

        case .rotorStep: "{rotor} {position} : {item}"
        case .rotorName: "Rotor {rotor} ({position})"
        case .rotorNoneChosen:
            "{name} : {count} éléments, aucun n'est encore choisi. Tape bas ou haut pour les parcourir."
        case .rotorChosen: "{name} : {item}, {position}."
        case .actionsList: "Actions : {list}. Tape action suivi d'un numéro ou d'un nom."
        case .noActions: "L'élément où tu te trouves n'a pas d'actions."
        case .noSuchAction: "{element} n'a pas d'action « {name} ». Ses actions : {list}."
        case .whichAction: "Laquelle : {list} ?"

        case .keyActivate: "Entrée ou a"
        case .keyRotorItem: "bas ou haut"
        case .keyAdjust: "+ ou -"
        case .keyMagicTap: "magique"

        case .confirmStartOver:
            "Recommencer efface ta progression. Tape oui pour recommencer, ou autre chose pour continuer la partie."
        case .progressKept: "Ta progression est conservée."
        case .yesWords: "o oui"
        case .undone: "Annulé."
        case .nothingToUndo: "Il n'y a rien à annuler dans ce niveau."

        case .timedRoom:
            "Cette salle est chronométrée : {time}. Tape temps pour savoir ce qu'il reste, ou chrono non pour jouer "
                + "sans chronomètre."
        case .timeLeft: "Il reste {time} de lumière à ta torche."
        case .timeStopped: "Le chronomètre est arrêté : il reste {time} de lumière à ta torche."
        case .noClock: "Aucun chronomètre ne tourne dans cette salle."
        case .clockOff:
            "Sans pression du temps : la torche brûle aussi longtemps qu'il le faut. Tape chrono oui pour remettre le "
                + "chronomètre."
        case .clockOn: "La pression du temps revient à partir de la prochaine salle."
        case .clockUsage: "Tape chrono non, ou chrono oui."
        case .minutesOne: "1 minute"
        case .secondsLeftOne: "Il reste une seconde de lumière à ta torche."
        case .secondsLeftMany: "Il reste {count} secondes de lumière à ta torche."
        case .minutesMany: "{count} minutes"
        case .secondsOne: "1 seconde"
        case .secondsMany: "{count} secondes"
        case .minutesAndSeconds: "{minutes} et {seconds}"

        case .or: "ou"
        case .takesNothingAfter: "{word} ne prend rien après lui. Tape aide pour la liste des commandes."
        case .whichItem: "Quel élément ? Tape son numéro, par exemple 2."
        case .noItemNamed:
            "Aucun élément ici ne s'appelle « {name} ». Tape regarder pour les lister, puis a et un numéro ou un nom."
        case .waitUsage: "Tape attendre suivi d'un nombre de secondes, par exemple attendre 30."
        case .noItemsYet: "Il n'y a encore aucun élément."
        case .noSuchItemOne: "Il n'y a pas d'élément {number} ; cet écran n'en a qu'un."
        case .noSuchItemMany: "Il n'y a pas d'élément {number} ; cet écran en a {count}."
        case .directionUsage: "N'ajoute rien pour avancer, ou arrière pour reculer."
        case .typeUsage: "Répondre quoi ? Écris ta réponse après, par exemple répondre verre."
        case .noTextField: "Il n'y a pas de champ de texte où écrire ici."
        case .actionUsage: "Quelle action ? Tape action suivi d'un numéro ou d'un nom, par exemple action 1."
        case .gotoUsage: "Tape niveau, un chapitre et un niveau, par exemple niveau 2 1."
        case .answerTooLong: "Cette réponse dépasse {limit} caractères ; les réponses sont courtes."
        case .unknownCommand: "Commande inconnue : « {word} »."
        case .didYouMean: "Voulais-tu dire {word} ? Tape aide pour la liste des commandes."
        case .numberMoved:
            "Rien n'a été répondu : un numéro déplace vers un élément. Pour répondre {number}, tape : répondre {number}"
        case .numberAnswer: "Les numéros déplacent sur un élément ; pour répondre {number}, tape : répondre {number}"
        case .emptyAnswer: "Rien à répondre pour l'instant : écris ta réponse, puis appuie sur Entrée."
        case .stepsUsage: "Tourner de combien de crans ? Tape + ou - et un nombre de 1 à 99, par exemple + 4."
        case .turnedTo: "{name} : {value}."
        case .howToAnswer: "Pour répondre, va sur l'élément {number} et tape ta réponse, ou tape : répondre {text}"
        case .seeHelp: "Tape aide pour la liste des commandes."

        case .helpTitle: "Commandes (forme courte d'abord) :"
        case .helpHere: "Ici : {label}."
        case .helpNothingHere: "Il ne fait rien ici."
        case .helpNext: "n, su, suivant : aller à l'élément suivant."
        case .helpPrevious: "p, pr, précédent : aller à l'élément précédent."
        case .helpFirst: "f, pe, premier : aller au premier élément."
        case .helpLast: "l, d, dernier : aller au dernier élément."
        case .helpFocus:
            "Un numéro, par exemple 3, ou aller 3 : aller à l'élément 3, même depuis un champ de texte (répondre 3 répond 3)."
        case .helpActivate:
            "Entrée sur une ligne vide, a, ac, activer : activer l'élément où tu te trouves. a 3 active l'élément 3, a lampe l'élément appelé lampe."
        case .helpType:
            "répondre TEXTE : écrire TEXTE dans le champ de texte et le valider. Sur un champ de texte, tape "
                + "simplement ta réponse."
        case .helpRotor: "r, rotor : tourner le rotor de l'élément. r arrière le tourne en sens inverse."
        case .helpItem: "i, b, bas : élément suivant du rotor."
        case .helpItemBack: "ha, haut : élément précédent du rotor."
        case .helpActions: "actions : la liste des actions de l'élément où tu te trouves."
        case .helpAction: "action 2, ou action NOM : faire l'une des actions de l'élément, nommée par son verbe."
        case .helpIncrease: "+, augmenter : tourner vers le haut un élément réglable ; + 4 ou +4 le tourne de 4 crans."
        case .helpDecrease: "-, diminuer : tourner vers le bas un élément réglable ; - 4 ou -4 le tourne de 4 crans."
        case .helpMagic: "magique : le toucher magique. {here}"
        case .helpEscape: "échap : le geste d'échappement. {here}"
        case .helpHint: "h, in, indice : entendre un indice."
        case .helpTime: "t, temps : combien de temps la torche brûle encore."
        case .helpClock:
            "c non, c oui, chrono non, chrono oui : jouer les salles chronométrées sans chronomètre, ou de nouveau avec."
        case .helpWait:
            "z, at, attendre : laisser passer 10 secondes ; attendre SECONDES : autant. Avec --clock virtual, ce qui débloque les indices."
        case .helpMenu: "m, menu : ouvrir le menu des niveaux."
        case .helpGoto: "g, ni, niveau CHAPITRE NIVEAU : aller à un niveau déjà atteint, par exemple g 2 1."
        case .helpReplay:
            "rejouer : recommencer la partie ; la partie d'avant est gardée sous le nom before-replay."
        case .helpUndo: "u, an, annuler : revenir sur ton dernier geste dans ce niveau."
        case .helpState: "s, e, état, où : redire l'écran, l'élément où tu te trouves et ta progression."
        case .helpList:
            "re, liste, regarder : la salle à nouveau : ses éléments, numérotés, et l'élément où tu te trouves."
        case .helpExamine:
            "x, ex, examiner : l'élément où tu te trouves à nouveau ; x 3 ou x lampe : aller à cet élément et l'entendre."
        case .helpReview: "historique : les 10 dernières lignes à nouveau ; revoir N : les N dernières, jusqu'à 100."
        case .helpSave:
            "sauvegarder NOM\u{A0}: garder ce moment sous un nom\u{202F}; sauvegarder seul\u{A0}: où ta progression est gardée (toute seule, à chaque porte)."
        case .helpRestore:
            "restaurer NOM, charger NOM\u{A0}: ramener un moment gardé\u{202F}; restaurer seul les liste."
        case .reviewUsage: "Tape revoir et le nombre de lignes à réentendre, de 1 à {most}, par exemple revoir 5."
        case .restoreHow:
            "Ta progression revient aussi toute seule quand tu relances efb\u{202F}; pour rejouer une salle, ouvre le menu des niveaux avec m."
        case .savedIn: "Ta progression est sauvegardée toute seule chaque fois qu'une porte s'ouvre, dans {path}."
        case .savedNowhere:
            "Cette partie ne garde rien (lancée avec --memory-save) : la progression s'arrête avec elle."
        case .savedByServer:
            "Cette partie est partagée : l'efb serve qui la fait tourner sauvegarde chaque fois qu'une porte s'ouvre."
        case .saveSlotHint:
            "Pour garder ce moment sous un nom, tape sauvegarder et un nom, par exemple sauvegarder porte\u{202F}; restaurer porte le ramène."
        case .slotNameUsage:
            "Le nom d'une sauvegarde peut contenir les lettres a à z sans accent, des chiffres, - et _, {most} caractères au plus, par exemple sauvegarder porte-2."
        case .slotKept: "Sauvegardé sous le nom {name}, dans {path}. Tape restaurer {name} pour le ramener."
        case .slotKeptInMemory:
            "Sauvegardé sous le nom {name}. Tape restaurer {name} pour le ramener. Cette partie ne garde aucun fichier (--memory-save)\u{A0}: ses sauvegardes durent jusqu'à sa fin."
        case .slotsShared:
            "Les sauvegardes nommées ne sont pas possibles dans une partie partagée\u{A0}: tous ceux qui sont reliés à efb serve jouent la même partie, et ramener un moment passé la changerait pour eux tous."
        case .slotNotKept: "Impossible de sauvegarder {name}\u{A0}: {reason}. La partie continue."
        case .slotMissing: "Aucune sauvegarde ne s'appelle {name}. Tape restaurer pour lister tes sauvegardes."
        case .slotTooLarge:
            "La sauvegarde {name} dépasse {most}\u{A0}: ce n'est pas une sauvegarde de ce jeu. La partie continue comme avant."
        case .slotSizeLimit: "1\u{A0}Mio"
        case .slotDamaged:
            "La sauvegarde {name} est abîmée\u{A0}: elle ne contient aucune partie. La partie continue comme avant."
        case .slotUnreadable:
            "Impossible de restaurer la sauvegarde {name}\u{A0}: {reason}. La partie continue comme avant."
        case .slotRefused: "Le jeu a refusé la sauvegarde {name} ({reason}). La partie continue comme avant."
        case .slotRestored:
            "Sauvegarde {name} restaurée. Elle entre dans ton fichier de progression à la prochaine porte ouverte."
        case .slotRestoredInMemory: "Sauvegarde {name} restaurée."
        case .slotsListed:
            "Tes sauvegardes, de la plus récente à la plus ancienne\u{A0}: {list}. Tape restaurer et un nom pour en ramener une."
        case .noSlots:
            "Tu n'as encore aucune sauvegarde. Tape sauvegarder et un nom, par exemple sauvegarder porte, pour en garder une."
        case .slotPlaceNotYours:
            "{path} est un lien, n'est pas un simple fichier ou dossier, ou appartient à quelqu'un d'autre\u{A0}: on n'y touche pas"
        case .slotPlaceFailed: "{path}\u{A0}: {error}"
        case .keptBeforeReplay: "Ta partie d'avant est gardée\u{A0}: restaurer {name} la ramène."
        case .notKeptBeforeReplay: "Ta partie d'avant n'a pas pu être gardée\u{A0}: {reason}."
        case .nothingToReview: "Rien n'a encore été dit."
        case .helpAgain:
            "encore, répéter : répéter la dernière annonce ; en arrivant dans une salle, ce qui y a été dit."
        case .helpHelp: "ai, aide, ? : cette liste."
        case .helpMore:
            "aide plus : les autres commandes (menu des niveaux, aller à un niveau, annuler, horloge, attendre)."
        case .helpQuit: "q, qu, quitter : arrêter de jouer. La progression est enregistrée à chaque porte ouverte."
        }
    }
}
