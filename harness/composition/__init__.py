"""Card composition helpers beside the zone primitive: reusable algorithms built from the
zone library's mechanisms (no card-only systems).

One module per helper: ``keywords`` (KeywordRegistry, resolveKeywordLayers),
``responses`` (response windows), ``targets`` (TargetSpec, enumerateTargetChoices,
ActionDefinition, generic action enumeration), ``durations``, ``phases`` (the phase
runner), ``decks`` (validateDeck), ``transactions`` (costs and drafts) and ``turn_view``
(TurnView, the information-leak check over views, actions and target choices).
"""
