print("newsstand")
