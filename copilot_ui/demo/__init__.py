"""The demo dashboard's own parts (the app module is copilot_ui/copilot_ui.py): its states and pages, its orders, kept
in the app's database, the cards it draws for its tools, its agent's report tool and the demo model's script for it (the phrases
README.md lists, and what it writes from the page). Not installed with copilot_ui: an app brings its own."""
