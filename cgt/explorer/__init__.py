"""The explorer: a local web application to click through a game with every move's value
(``cgt explore``). :mod:`cgt.explorer.values` finds the values, :mod:`cgt.explorer.board_view`
turns positions into drawable boards, :mod:`cgt.explorer.app` serves the page and the JSON API.
"""
