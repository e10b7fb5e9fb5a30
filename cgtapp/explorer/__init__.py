"""The explorer: a local web application to click through a game with every move's value
(``cgt explore``). :mod:`cgtapp.explorer.values` finds the values, :mod:`cgtapp.explorer.board_view`
turns positions into drawable boards, :mod:`cgtapp.explorer.app` serves the page and the JSON API.
"""
