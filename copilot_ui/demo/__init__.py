"""The demo dashboard's own parts (the app module is copilot_ui/copilot_ui.py): its orders, kept in the app's
database, and the cards it draws for its tools. Not installed with copilot_ui: an app brings its own."""
