// SPDX-License-Identifier: Apache-2.0
import EscapeCore

extension SessionWords {
    /// The French table, written like the shipped `fr.json` and ``EngineWords``'s French: the player is
    /// addressed as « tu », with French spacing before « : » and « ; ».
    static func french(_ key: Key) -> String {
        switch key {
        case .errorLineTooLong: "la ligne fait {length} octets ; la limite est de {limit}"
        case .errorStale: "l'état est passé à la génération {generation} (la commande attendait {expected})"
        case .errorUnsupportedProtocol: "ce moteur parle le protocole {version}, pas {requested}"
        case .errorSaveFailed: "la progression n'a pas pu être enregistrée ({location}) : {error} ; le jeu continue"
        case .errorNoWaitToCancel: "aucune attente sur l'horloge réelle n'a l'identifiant {target}"
        case .errorBatchWaitsOnRealClock:
            "un lot ne peut pas attendre sur l'horloge réelle, car il ne serait plus tout ou rien ; envoie l'attente seule"
        case .errorBatchTooMuchTime:
            "les attentes du lot font {total} ms en tout ; une ligne peut laisser passer au plus {limit} ms"
        case .errorTooManyEvents: "le lot enverrait plus de {limit} événements ; rien n'en a été fait"

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
        case .errorMadeRoom:
            "cette partie a {limit} clients et un autre veut la rejoindre : cette connexion, qui n'a "
                + "jamais envoyé de ligne, est fermée pour lui faire place"
        case .errorNotTaken: "efb web ne prend pas cette commande"
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
        }
    }
}
