module rtm.local/rtm

go 1.19
