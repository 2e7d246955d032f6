# rc
