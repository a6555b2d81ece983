"""A copilot shaped by its app (COPILOT_EXTRA_MODULES of the served app in test_yours_to_shape.py), written from
docs/guides/customizing.md and docs/guides/feedback.md: French words for the whole app, a page of its own with its
greeting, placeholder and message components, a popup opened by Mod+K, and a feedback hook that writes each
rating to the file named by SHAPED_FEEDBACK_FILE.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import reflex as rx

import copilot_ui as cui

FRENCH = cui.Labels(
    title="Copilote",
    new_conversation="Nouvelle conversation",
    conversations="Conversations",
    close="Fermer le copilote",
    close_tooltip="Fermer",
    open="Ouvrir le copilote",
    model="Le modèle qui répond",
    reconnecting="Reconnexion…",
    agent_picker="Agent",
    conversation="Conversation",
    greeting="Posez une question sur la page, ou demandez au copilote de la changer.",
    suggestions="Suggestions",
    show_earlier="Voir les messages précédents",
    you="Vous",
    assistant="Copilote",
    queued="En attente",
    thinking="Réflexion…",
    thought_for="Réflexion de {seconds} s",
    thoughts="Réflexions",
    retry="Réessayer",
    placeholder="Demandez au copilote…",
    composer="Demandez au copilote",
    send="Envoyer",
    stop="Arrêter",
    copy="Copier le message",
    copied="Copié",
    edit="Modifier le message",
    edit_box="Modifiez votre message",
    cancel="Annuler",
    regenerate="Régénérer",
    good_response="Bonne réponse",
    bad_response="Mauvaise réponse",
    feedback_comment="Qu'est-ce qui n'allait pas ? (facultatif)",
    send_feedback="Envoyer l'avis",
    feedback_thanks="Merci pour votre avis",
    arguments="Arguments",
    result="Résultat",
    approve="Approuver",
    deny="Refuser",
    not_now="Pas maintenant",
    editable_arguments="Arguments (modifiables)",
    deny_reason="Raison (facultative)",
    deny_placeholder="Pourquoi pas ? L'agent la lit.",
    review="Examiner",
    answer="Répondre",
    your_answer="Votre réponse",
    jump_to_latest="↓ Aller au plus récent",
    more_characters="{count} caractères de plus",
    show_all="Tout afficher",
    search_conversations="Rechercher des conversations",
    no_match="Aucun résultat",
    no_conversations="Pas encore de conversation.",
    rename="Renommer {title}",
    delete="Supprimer {title}",
    new_title="Nouveau titre",
    save="Enregistrer",
    confirm_delete="Supprimer « {title} » ?",
    delete_button="Supprimer",
    keep="Garder",
    runs_once_approved="Cet appel ne s'exécute qu'une fois approuvé.",
    not_run="Non lancé : vous avez écrit un nouveau message",
    activity_content="Contenu",
    tool_call_card="Appel d'outil {tool}",
    activity_card="Activité {type}",
    running_tool="{tool} en cours…",
    waiting="En attente de l'agent… {seconds} s",
    stopped="Arrêté.",
    stopped_because="Arrêté : {reason}",
    interrupted="Interrompu : le serveur s'est arrêté pendant le travail du copilote. Réessayez pour continuer.",
    attach_files="Joindre des fichiers",
    attached_files="Fichiers joints",
    sent_files="Fichiers",
    remove_file="Retirer {name}",
    uploading="Envoi…",
    file_type_refused="{name} : ce type de fichier n'est pas accepté",
    file_empty="{name} est vide",
    file_too_big="{name} pèse {size} ; la limite est de {limit}",
    too_many_files="{name} : un message prend au plus {count} fichiers",
    conversation_full="{name} : cette conversation contient {held} de fichiers ; la limite est de {limit}",
    too_many_unsent="{name} : {count} fichiers attendent déjà d'être envoyés ; envoyez-les ou retirez-en",
    just_now="à l'instant",
    minutes_ago="il y a {minutes} min",
    hours_ago="il y a {hours} h",
    months=("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    no_such_agent="Il n'y a pas d'agent {agent} ici ; ce copilote peut utiliser : {agents}.",
)
cui.copilot.labels = FRENCH  # every page of this app speaks French


def my_question(message: cui.MessageView) -> rx.Component:
    """The person's messages, drawn by the app."""
    return rx.el.div(rx.el.strong("Moi : "), message.content(), class_name="shaped-question")


def my_answer(message: cui.MessageView) -> rx.Component:
    """The agent's replies, drawn by the app."""
    return rx.el.div(rx.badge("Acme IA"), message.content(), class_name="shaped-answer")


def my_welcome(labels: cui.Labels) -> rx.Component:
    """An empty conversation, drawn by the app."""
    return rx.el.div(rx.heading("Bonjour !", size="4", as_="h3"), rx.text(labels.greeting), class_name="shaped-welcome")


@cui.copilot.on_feedback
def keep_feedback(feedback: cui.Feedback) -> None:
    """Write each rating where the test reads it."""
    path = os.environ.get("SHAPED_FEEDBACK_FILE")
    if path:
        with Path(path).open("a", encoding="utf-8") as file:
            file.write(json.dumps(asdict(feedback), ensure_ascii=False) + "\n")


@rx.page(route="/shaped", title="Acme · un copilote à sa façon")
def shaped() -> rx.Component:
    """A page whose copilot has its own greeting, placeholder and message components."""
    return cui.sidebar(
        rx.el.main(rx.heading("Acme", size="6", as_="h1"), style={"padding": "1rem"}),
        placeholder="Une question sur Acme ?",
        greeting="Bonjour ! Je connais les ventes d'Acme.",
        user_message=my_question,
        assistant_message=my_answer,
        empty_state=my_welcome,
    )


@rx.page(route="/shaped-popup", title="Acme · le copilote en popup")
def shaped_popup() -> rx.Component:
    """A popup opened by Mod+K, with an icon of its own on its button."""
    popup = cui.popup(shortcut="mod+k", icons={"open": "message-circle"})
    return rx.el.main(rx.heading("Acme", size="6", as_="h1"), popup, style={"padding": "1rem"})
